import * as z from 'zod/mini';

/** Keys the server keeps per user: the product's own (tutorial, confirmations, wizard, dashboard…) plus this client's. */
export const PREFERENCE_KEYS = [
  'uc-tutorial-completed',
  'voicemail-delete-confirm-modal',
  'contact-delete-confirm-modal',
  'uc-services-account-wizard-dismissed',
  'uc-services-account-confirmed',
  'uc-dashboard-background',
  'uc-tutorial-logo-upload',
  'uc-can-create-meetings',
  'uc-home-page',
  'uc-language',
  'uc-sort-rooms',
  'uc-messages-cut-off',
  'uc-hotkeys',
  'uc-recent-commands',
  // true: the user turned the chat sound off (never saved reads false, so the sound is on).
  'uc-chat-sound-off',
  // 'light', 'dark' or 'system' (the preferences' General panel; this browser keeps a copy for the first paint).
  'uc-theme',
  // The kinds of desktop notification the user switched off, e.g. ['texts'] (never saved: all on).
  'uc-desktop-notifications-off',
  // "Call my phone first": { enabled, device } (wire/clickDial.ts; never saved: off).
  'uc-click-dial',
  // The text conversations the user muted (their jids): no notice, no badge, the Muted sub-group.
  'uc-texts-muted',
] as const;
export type PreferenceKey = (typeof PREFERENCE_KEYS)[number];
export const PreferenceKeySchema = z.enum(PREFERENCE_KEYS);

export const PreferenceBody = z.object({ value: z.unknown() });
export const PreferenceResponse = z.object({ key: PreferenceKeySchema, value: z.unknown() });
export type PreferenceResponse = z.infer<typeof PreferenceResponse>;

/** Per-user hotkey remapping: command id → key binding (tinykeys syntax) or null for "switched off". */
export const HotkeyOverrides = z.record(z.string().check(z.maxLength(200)), z.nullable(z.string().check(z.maxLength(64))));
export type HotkeyOverrides = z.infer<typeof HotkeyOverrides>;
