import * as z from 'zod/mini';

/** `GET/PUT /v1/users/{id}/settings/uc`: the user's six UC settings. */
export const UC_SETTING_KEYS = ['email_notification', 'sms_notification', 'auto_record_audio', 'start_with_video', 'expand_nav', 'share_presence'] as const;
export type UcSettingKey = (typeof UC_SETTING_KEYS)[number];

export const UcSettings = z.object({
  email_notification: z.boolean(),
  sms_notification: z.boolean(),
  auto_record_audio: z.boolean(),
  start_with_video: z.boolean(),
  expand_nav: z.boolean(),
  share_presence: z.boolean(),
});
export type UcSettings = z.infer<typeof UcSettings>;

/** A PUT names the settings it changes; the others keep their value. Unknown keys are refused. */
export const UcSettingsPatch = z.strictObject({
  email_notification: z.optional(z.boolean()),
  sms_notification: z.optional(z.boolean()),
  auto_record_audio: z.optional(z.boolean()),
  start_with_video: z.optional(z.boolean()),
  expand_nav: z.optional(z.boolean()),
  share_presence: z.optional(z.boolean()),
});

/** What a user who never saved has: nothing sent or recorded behind their back, navigation expanded, presence shared. */
export const UC_SETTINGS_DEFAULTS: UcSettings = {
  email_notification: false,
  sms_notification: false,
  auto_record_audio: false,
  start_with_video: false,
  expand_nav: true,
  share_presence: true,
};
