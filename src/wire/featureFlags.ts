/** Every feature flag the configuration may switch on, apart from the zod schemas in ./config so boot code can list them without zod. */
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
export type FeatureFlags = Record<FeatureFlag, boolean>;
