import * as z from 'zod/mini';

export const RECORDING_MODES = ['on', 'on_demand', 'off'] as const;
export type RecordingMode = (typeof RECORDING_MODES)[number];

/** `GET /v1/call-recording-settings` */
export const CallRecordingSettings = z.object({
  ecr_call_recording_status: z.enum(RECORDING_MODES),
  ecr_can_view_own_recordings: z.boolean(),
});
export type CallRecordingSettings = z.infer<typeof CallRecordingSettings>;

/** What the dock's recording button does next: Start, then Pause and Resume in turn. */
export const RecordingAction = z.enum(['start', 'pause', 'resume']);
export type RecordingAction = z.infer<typeof RecordingAction>;

/** `POST /v1/calls/{sip_call_id}/recording` */
export const RecordingControlRequest = z.object({ action: RecordingAction });
export type RecordingControlRequest = z.infer<typeof RecordingControlRequest>;

export const RecordingState = z.enum(['none', 'recording', 'paused']);
export type RecordingState = z.infer<typeof RecordingState>;

export const RecordingControlResponse = z.object({
  state: RecordingState,
  mode: z.enum(RECORDING_MODES),
  /** Files rtpengine has opened for this call so far (a pause closes one, a resume opens the next). */
  segments: z.int(),
});
export type RecordingControlResponse = z.infer<typeof RecordingControlResponse>;

/** The button's next action for a state, or null when recording cannot be changed (mode off). */
export function nextRecordingAction(state: RecordingState, mode: RecordingMode): RecordingAction | null {
  if (mode === 'off') return null;
  if (state === 'recording') return 'pause';
  if (state === 'paused') return 'resume';
  return 'start';
}

/** `GET /v1/platform-configuration`: the DTMF sequences that control a call's recording from any phone. */
export const PlatformConfiguration = z.object({
  ecr_pause_recording_dtmf_sequence: z.string(),
  ecr_on_demand_dtmf_sequence: z.string(),
});
export type PlatformConfiguration = z.infer<typeof PlatformConfiguration>;
