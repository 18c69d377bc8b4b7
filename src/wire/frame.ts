import * as z from 'zod/mini';

/**
 * A contact-center link of the user's configuration (the specification's contact-center URL item):
 * type `cc` has an admin and an agent page, type `ivr` an admin page only.
 */
export const ContactCenterLink = z.object({
  type: z.enum(['cc', 'ivr']),
  admin_url: z.string(),
  agent_url: z.nullable(z.string()),
});
export type ContactCenterLink = z.infer<typeof ContactCenterLink>;

/** The announcements the product has; `GET /v1/announcements` lists those the user has not confirmed. */
export const ANNOUNCEMENT_IDS = ['design-changes'] as const;
export type AnnouncementId = (typeof ANNOUNCEMENT_IDS)[number];
export const AnnouncementIdParam = z.object({ id: z.enum(ANNOUNCEMENT_IDS) });
export const PendingAnnouncements = z.object({ pending: z.array(z.enum(ANNOUNCEMENT_IDS)) });
export type PendingAnnouncements = z.infer<typeof PendingAnnouncements>;

/**
 * `GET /v1/maintenance`: 200 with this while the service runs, 503 (`{ error: 'maintenance',
 * message }`) while it is under maintenance. `client_build` is the build the server serves (null when
 * it serves none, e.g. behind the development server): a client that is another build is stale.
 */
export const MaintenanceStatus = z.object({ maintenance: z.literal(false), client_build: z.nullable(z.string()) });
export type MaintenanceStatus = z.infer<typeof MaintenanceStatus>;

export { HEADLINE_DELAY_MS, MAINTENANCE_SUBJECT, VOICEMAIL_SUBJECT } from './frameConstants';

/** The specification's voicemail notification. */
export const VoicemailNotice = z.object({ vm_id: z.string(), caller_name: z.nullable(z.string()) });
export type VoicemailNotice = z.infer<typeof VoicemailNotice>;
