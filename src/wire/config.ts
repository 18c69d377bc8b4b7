import * as z from 'zod/mini';

export const FEATURE_FLAGS = [
  'attendedTransfer',
  'attendedTransferWithCallRecording',
  'threeWayCalling',
  'threeWayCallingFirefox',
  'speedDial',
  'mucSub',
  'webMeetingManagement',
  'adhocEnabled',
  'logoAdmin',
  'integratedPresence',
  'p1Enabled',
  'p1Displayed',
  'voicemail2',
  'ucDisabled',
  'sso',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];
export const FeatureFlags = z.record(z.enum(FEATURE_FLAGS), z.boolean());
export type FeatureFlags = Record<FeatureFlag, boolean>;

export const UccConfig = z.object({
  client_id: z.string(),
  branding: z.object({ product_name: z.string(), logo_url: z.nullable(z.string()), accent_color: z.string() }),
  features: FeatureFlags,
  sip: z.object({
    configured: z.boolean(),
    ws_url: z.string(),
    domain: z.string(),
    register_expires: z.int(),
    no_answer_timeout: z.int(),
    stun_port: z.int(),
  }),
  messaging: z.object({
    ws_url: z.string(),
    domain: z.string(),
    ping_interval_ms: z.int(),
    ping_timeout_ms: z.int(),
  }),
  /** The voicemail navigation entry shows only when this is set. */
  mailbox_number: z.nullable(z.string()),
  help_url: z.string(),
});
export type UccConfig = z.infer<typeof UccConfig>;
