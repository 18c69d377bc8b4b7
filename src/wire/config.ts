import * as z from 'zod/mini';
import { FEATURE_FLAGS, type FeatureFlag } from './featureFlags';
import { ContactCenterLink } from './frame';

export { FEATURE_FLAGS, type FeatureFlag } from './featureFlags';
export const FeatureFlags = z.record(z.enum(FEATURE_FLAGS), z.boolean());
export type FeatureFlags = Record<FeatureFlag, boolean>;

export const UccConfig = z.object({
  client_id: z.string(),
  branding: z.object({ product_name: z.string(), logo_url: z.nullable(z.string()), accent_color: z.string() }),
  features: FeatureFlags,
  sip: z.object({
    /** False when the user has no extension: calling is hidden and its commands say why. */
    configured: z.boolean(),
    ws_url: z.string(),
    /** Every Kamailio's WebSocket (a cluster), ws_url first; absent: ws_url alone. */
    ws_urls: z.optional(z.array(z.string())),
    domain: z.string(),
    register_expires: z.int(),
    no_answer_timeout: z.int(),
    stun_port: z.int(),
    /** The SIP agent restarts this long after the network comes back. */
    restart_after_online_ms: z.int(),
  }),
  messaging: z.object({
    /** False for the limited-access role (4): such users get no chat at all. */
    enabled: z.boolean(),
    ws_url: z.string(),
    domain: z.string(),
    /** Host of the group-chat rooms (MUC with MucSub). */
    muc_domain: z.string(),
    ping_interval_ms: z.int(),
    ping_timeout_ms: z.int(),
    /** Messages per MAM history page. */
    history_page_size: z.int(),
  }),
  /** The voicemail navigation entry shows only when this is set. */
  mailbox_number: z.nullable(z.string()),
  /** The deployment sends e-mail (UC_SMTP_URL is set): voicemail e-mails can be turned on. */
  email_configured: z.boolean(),
  help_url: z.string(),
  /** The user's contact-center links (the apps menu); empty for most users. */
  contact_center: z.array(ContactCenterLink),
  /** The entry script of the build the server serves (see README, "Old clients"); null when it serves none. */
  client_build: z.nullable(z.string()),
});
export type UccConfig = z.infer<typeof UccConfig>;
