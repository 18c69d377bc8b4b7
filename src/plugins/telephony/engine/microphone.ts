import type { AudioChoice } from '../../../contracts';
import { audioConstraints, DEFAULT_AUDIO } from '../model/audioConstraints';
import { phone } from '../state';
import type { EngineDeps } from './deps';
import type { CallOptions, SessionLike } from './types';
import { log } from '../log';

/** Audio only (the browsers' usual processing); Chromium gathers no loopback candidates and needs RTCP multiplexing with rtpengine. */
export const CALL_OPTIONS: CallOptions = {
  mediaConstraints: { audio: audioConstraints(DEFAULT_AUDIO), video: false },
  pcConfig: { iceServers: [], rtcpMuxPolicy: 'require' },
};

/**
 * A microphone opened while the user types a number stays open this long waiting for the call
 * (the browser shows it in use meanwhile); then it is closed again.
 */
export const WARM_MIC_MS = 15_000;

/**
 * A ringing call's microphone opens this long after the ring starts (once the call is drawn and
 * its tone plays): well before a person answers, without competing with the ring itself.
 */
export const RING_MIC_DELAY_MS = 300;

let iceServers: RTCIceServer[] = [];

/** The TURN server the SIP credentials came with (renewed with them); calls placed or answered from now on use it. */
export function useIceServers(servers: readonly RTCIceServer[] | undefined): void {
  iceServers = servers ? [...servers] : [];
}

/** CALL_OPTIONS with the chosen microphone and its processing, and the ICE servers of the credentials. */
export function callOptions(): CallOptions {
  return { ...CALL_OPTIONS, pcConfig: { ...CALL_OPTIONS.pcConfig, iceServers }, mediaConstraints: { audio: audioConstraints(phone.devices), video: false } };
}

export type MicrophoneDeps = Pick<EngineDeps, 'getUserMedia' | 'devices' | 'audio' | 'notify' | 'tones'>;

/** A microphone opened ahead of the call that will use it: while the user dials, or while a call rings. */
export interface WarmMicrophone {
  /** A call rings: open the microphone soon, so that answering does not wait for it. */
  ring(): void;
  /** The opened microphone, handed over to the call being answered (null: none was opened). */
  take(): Promise<MediaStream | null> | null;
  /** The ringing call went unanswered: close the microphone opened for it. */
  release(): void;
}

/**
 * The microphone and speaker: the ones the user chose (remembered), the microphone each outgoing
 * call opens, the one opened ahead while the user dials or a call rings, and switching devices
 * during calls.
 */
export class Microphone implements WarmMicrophone {
  /** The microphone opened ahead of a call (warm(), ring()); a dialling one closes itself after WARM_MIC_MS. */
  private warmed: { stream: Promise<MediaStream | null>; timer: ReturnType<typeof setTimeout> | null } | null = null;
  /** A call rings: the microphone opens RING_MIC_DELAY_MS later (ring()). */
  private ringTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(private readonly deps: MicrophoneDeps) {
    const chosen = deps.devices?.load();
    if (chosen) {
      phone.devices = { ...chosen };
      if (chosen.output) deps.audio.setSink(chosen.output);
      if (chosen.ring) deps.tones.setRingSink(chosen.ring);
    }
  }

  /**
   * The call's microphone, opened by us (so that its tracks are ours to stop when the call ends);
   * null where the engine has no getUserMedia of its own (JsSIP then asks), 'denied' when refused.
   */
  async open(): Promise<MediaStream | null | 'denied'> {
    if (!this.deps.getUserMedia) return null;
    const warm = this.take();
    if (warm) {
      const stream = await warm;
      if (stream?.getAudioTracks().some((t) => t.readyState === 'live')) return stream;
    }
    try {
      return await this.deps.getUserMedia(callOptions().mediaConstraints);
    } catch (err) {
      log.error('microphone', err);
      this.deps.notify.toast({ tone: 'error', titleKey: 'telephony:errors.deviceDenied', messageKey: 'telephony:errors.pleaseReload', timeoutMs: 10_000 });
      return 'denied';
    }
  }

  /**
   * The user started dialling: open the microphone now, so that placing the call does not wait for
   * it (getUserMedia is the largest part of click → INVITE). Not while a call is in progress (its
   * own microphone is open); closed again after WARM_MIC_MS if no call uses it.
   */
  warm(): void {
    if (!this.deps.getUserMedia || this.warmed || this.disposed || phone.status !== 'ready') return;
    if (Object.values(phone.calls).some((c) => c.state !== 'none')) return;
    const stream = this.deps.getUserMedia(callOptions().mediaConstraints).catch(() => null);
    this.warmed = { stream, timer: setTimeout(() => this.dropWarm(), WARM_MIC_MS) };
  }

  /**
   * A call rings (calls.ts): the microphone opens shortly after, as the answer would otherwise start with
   * getUserMedia (the largest part of answering, and on real devices often far longer than here).
   * The browser shows the microphone in use while the call rings; nothing is sent until the user
   * answers, and it closes if they do not (release()). Not while another call is in progress: that
   * call's microphone is open, and answering opens one of its own as before.
   */
  ring(): void {
    if (!this.deps.getUserMedia || this.disposed || phone.status !== 'ready') return;
    if (Object.values(phone.calls).some((c) => c.state !== 'none' && c.state !== 'incoming')) return;
    if (this.warmed) {
      // Opened while dialling: it now waits for the ringing call, however long it rings.
      if (this.warmed.timer) clearTimeout(this.warmed.timer);
      this.warmed.timer = null;
      return;
    }
    // Not together with the ring itself: opened while the ringing call is drawn and its tone
    // starts, getUserMedia took 40–150 ms instead of 20 (measured, loaded machine) and slowed them.
    const getUserMedia = this.deps.getUserMedia;
    this.ringTimer ??= setTimeout(() => {
      this.ringTimer = null;
      if (this.warmed || this.disposed) return;
      this.warmed = { stream: getUserMedia(callOptions().mediaConstraints).catch(() => null), timer: null };
    }, RING_MIC_DELAY_MS);
  }

  take(): Promise<MediaStream | null> | null {
    // Answered before the microphone was due to open: the answer opens it, as it always did.
    if (this.ringTimer) clearTimeout(this.ringTimer);
    this.ringTimer = null;
    const w = this.warmed;
    if (!w) return null;
    this.warmed = null;
    if (w.timer) clearTimeout(w.timer);
    return w.stream;
  }

  release(): void {
    this.dropWarm();
  }

  private dropWarm(): void {
    void this.take()?.then((s) => s?.getTracks().forEach((t) => t.stop()));
  }

  private save(): void {
    this.deps.devices?.save({ ...phone.devices });
  }

  /**
   * Uses another microphone, remembered for the next calls and switched in every live call
   * (`live`: connected or held) without renegotiation (RTCRtpSender.replaceTrack): the far end
   * hears no gap worth noticing.
   */
  async setInput(deviceId: string | null, live: ReadonlyArray<readonly [string, SessionLike]>): Promise<boolean> {
    return this.setAudio({ input: deviceId }, live);
  }

  /**
   * Changes the audio choices (Preferences ▸ Audio): a new microphone or processing is switched in
   * the live calls like setInput, the outputs are moved at once.
   */
  async setAudio(change: Partial<AudioChoice>, live: ReadonlyArray<readonly [string, SessionLike]>): Promise<boolean> {
    const before = { ...phone.devices };
    Object.assign(phone.devices, change);
    const d = phone.devices;
    if (d.output !== before.output) this.deps.audio.setSink(d.output);
    if (d.ring !== before.ring) this.deps.tones.setRingSink(d.ring);
    this.save();
    const microphoneChanged = d.input !== before.input || d.echoCancellation !== before.echoCancellation || d.noiseSuppression !== before.noiseSuppression;
    if (!microphoneChanged) return true;
    this.dropWarm();
    if (!live.length) return true;
    const getUserMedia = this.deps.getUserMedia ?? ((c: MediaStreamConstraints) => navigator.mediaDevices.getUserMedia(c));
    try {
      for (const [id, session] of live) {
        const sender = session.connection?.getSenders().find((s) => s.track?.kind === 'audio' || s.track === null);
        if (!sender) continue;
        const stream = await getUserMedia({ audio: audioConstraints(phone.devices), video: false });
        const track = stream.getAudioTracks()[0];
        if (!track) continue;
        // A muted (or held) call stays silent on the new microphone.
        track.enabled = sender.track?.enabled ?? !phone.calls[id]?.muted;
        const old = sender.track;
        await sender.replaceTrack(track);
        old?.stop();
      }
      return true;
    } catch (err) {
      log.error('switching the microphone failed', err);
      this.deps.notify.toast({ tone: 'error', titleKey: 'telephony:errors.deviceTitle', messageKey: 'telephony:errors.microphoneFailed' });
      return false;
    }
  }

  /** Plays calls on another speaker (now and for the next calls). */
  setOutput(deviceId: string | null): void {
    phone.devices.output = deviceId;
    this.save();
    this.deps.audio.setSink(deviceId);
  }

  dispose(): void {
    this.disposed = true;
    this.dropWarm();
  }
}
