import { ApiError } from '../../../kernel';
import { CallRecordingSettings, nextRecordingAction, PlatformConfiguration, RecordingControlResponse } from '../../../wire/recording';
import { phone } from '../state';
import { nameOf, type CallTable } from './calls';
import type { EngineDeps } from './deps';
import { log } from '../log';

export type RecordingDeps = Pick<EngineDeps, 'api' | 'notify' | 't'>;

/** Call recording: the organisation's policy, and the recording button of a call. */
export class Recording {
  private disposed = false;

  constructor(
    private readonly deps: RecordingDeps,
    private readonly calls: CallTable,
  ) {}

  /** Whether calls are recorded (always, on demand, never) and the phone digit sequences for it. */
  async loadPolicy(): Promise<void> {
    const [settings, platform] = await Promise.allSettled([
      this.deps.api.get('/v1/call-recording-settings', undefined, CallRecordingSettings),
      this.deps.api.get('/v1/platform-configuration', undefined, PlatformConfiguration),
    ]);
    if (this.disposed) return;
    if (settings.status === 'fulfilled' && settings.value) phone.recordingPolicy.mode = settings.value.ecr_call_recording_status;
    else if (settings.status === 'rejected') log.error('recording settings', settings.reason);
    if (platform.status === 'fulfilled' && platform.value) {
      phone.recordingPolicy.pauseSequence = platform.value.ecr_pause_recording_dtmf_sequence;
      phone.recordingPolicy.onDemandSequence = platform.value.ecr_on_demand_dtmf_sequence;
    }
  }

  /**
   * The recording button: Start, then Pause and Resume in turn (policy `on_demand`, or pausing a
   * forced recording under `on`). The server answers with the call's real recording state.
   */
  async toggle(id = this.calls.currentId()): Promise<boolean> {
    const c = this.calls.record(id);
    if (!c || (c.state !== 'active' && c.state !== 'hold') || !c.sipCallId) return false;
    const action = nextRecordingAction(c.recording, phone.recordingPolicy.mode);
    if (!action) return false;
    try {
      const res = await this.deps.api.post(`/v1/calls/${encodeURIComponent(c.sipCallId)}/recording`, { action }, RecordingControlResponse);
      const now = this.calls.record(c.id);
      if (now && now.state !== 'none') now.recording = res.state;
      this.deps.notify.announce(this.deps.t(`telephony:announce.recording.${res.state}`, { name: nameOf(c) }), 'polite');
      return true;
    } catch (err) {
      this.deps.notify.toast({ tone: 'error', titleKey: 'telephony:errors.recordingTitle', ...(err instanceof ApiError ? { message: err.message } : { messageKey: 'telephony:errors.recordingFailed' }) });
      return false;
    }
  }

  dispose(): void {
    this.disposed = true;
  }
}
