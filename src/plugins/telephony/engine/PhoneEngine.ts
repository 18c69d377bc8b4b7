import type { AudioChoice, ConnectionTestOutcome, ConnectionTestProgress } from '../../../contracts';
import type { CallItemAction } from '../model/callButtons';
import { isBusyState } from '../model/callState';
import { phone } from '../state';
import { CallTable } from './calls';
import { ConnectionTest, webAudioProbe } from './connectionTest';
import type { EngineDeps, OthersPolicy } from './deps';
import { Microphone } from './microphone';
import { Dialler } from './outgoing';
import { Recording } from './recording';
import { Registration } from './registration';
import { ThreeWay } from './threeWay';
import { Transfers } from './transfers';
import { UserAgent } from './userAgent';

/**
 * The phone: one JsSIP user agent registered while this tab holds the user's registration
 * (`/v1/regreserve`), with time-limited credentials renewed on the same connection, and every call's
 * state in the `phone` store, moved through none, incoming, answering, outgoing, active and hold.
 *
 * A façade: the commands' runs (runs.ts), the TelephonyApi and the UI call these methods; the work is
 * done by its parts, each given only what it needs.
 * - `Registration` (registration.ts): which tab has the phone; starts and stops the `UserAgent`.
 * - `UserAgent` (userAgent.ts): credentials, the JsSIP agent, reconnecting; new sessions go to
 *   the call table.
 * - `CallTable` (calls.ts): sessions and call records, answering, hold, mute, DTMF.
 * - `Dialler` (outgoing.ts): placing calls, into the call table.
 * - `Transfers` (transfers.ts): blind, voicemail, desk and attended transfers of the table's calls.
 * - `ThreeWay` (threeWay.ts): merging two of the table's calls into a 3-way call.
 * - `Recording` (recording.ts), `Microphone` (microphone.ts): the recording button, the devices.
 * - `ConnectionTest` (connectionTest.ts): "Test connection", a measured call to the echo number.
 */
export class PhoneEngine {
  private readonly microphone: Microphone;
  private readonly calls: CallTable;
  private readonly agent: UserAgent;
  private readonly registration: Registration;
  private readonly dialler: Dialler;
  private readonly transfers: Transfers;
  private readonly threeWay: ThreeWay;
  private readonly recording: Recording;
  private readonly connectionTest: ConnectionTest;

  constructor(private readonly deps: EngineDeps) {
    this.microphone = new Microphone(deps);
    this.calls = new CallTable(deps, this.microphone);
    this.agent = new UserAgent(deps, this.calls, () => void this.registration.reserve(false));
    this.registration = new Registration(deps, this.agent, this.calls);
    this.dialler = new Dialler(deps, this.calls, {
      ua: () => this.agent.current(),
      elsewhere: () => this.registration.showElsewhere('telephony:notices.elsewhere'),
      openMicrophone: () => this.microphone.open(),
    });
    this.transfers = new Transfers(deps, this.calls, this.dialler, () => this.agent.ownUri());
    this.threeWay = new ThreeWay(deps, this.calls);
    this.recording = new Recording(deps, this.calls);
    this.connectionTest = new ConnectionTest(
      { ...deps, probe: deps.getUserMedia ? webAudioProbe : undefined },
      {
        ua: () => this.agent.current(),
        busy: () => this.calls.allCalls().some((c) => isBusyState(c.state)),
        placeUntracked: (place) => this.agent.placeUntracked(place),
      },
    );
  }

  // ---- the phone line ---------------------------------------------------------------------------

  start(): void {
    phone.status = 'connecting';
    void this.registration.reserve(false);
    void this.recording.loadPolicy();
  }

  /** "Use calling here": take the registration from whichever tab or browser holds it. */
  takeOver(): Promise<void> {
    return this.registration.takeOver();
  }

  /** The connection banner's retry, and the browser coming back online. */
  reconnect(): void {
    this.agent.reconnect();
  }

  /** The browser's `online` event: the SIP agent restarts a little later (the network settles first). */
  online(): void {
    this.agent.online();
  }

  /** Gives the registration hold back: the tab is closing or the user signs out. */
  releaseHold(): void {
    this.registration.releaseHold();
  }

  dispose(): void {
    this.recording.dispose();
    this.microphone.dispose();
    this.registration.dispose();
    this.calls.clearTimers();
    // Stopping the agent ends every session; the calls' last events still arrive.
    this.agent.dispose();
    this.registration.close();
    this.calls.silence();
  }

  // ---- calls ----------------------------------------------------------------------------------

  /**
   * Places a call. `target` is what the user typed or picked: a number (sanitised to digits, comma,
   * # and *; commas add DTMF after 2 s each), `#<shortcut>` for speed dial, or a `sip:` address.
   */
  call(target: string, opts: { displayName?: string; consultFor?: string } = {}): Promise<void> {
    return this.dialler.call(target, opts);
  }

  /** "Call ▸" from the palette: typed text, or a contact picked from the contacts provider. */
  callChoice(value: unknown): Promise<void> {
    return this.dialler.callChoice(value);
  }

  /** Answers a ringing call, or resumes a held one; calls using the line are held (or ended) first. */
  accept(id?: string, others?: OthersPolicy): boolean {
    return this.calls.accept(id, others);
  }

  decline(id?: string): boolean {
    return this.calls.decline(id);
  }

  hangup(id?: string): boolean {
    return this.calls.hangup(id);
  }

  toggleHold(id?: string): boolean {
    return this.calls.toggleHold(id);
  }

  toggleMute(id = this.calls.currentId()): boolean {
    return this.threeWay.toggleMute(id) || this.calls.toggleMute(id);
  }

  /** Merges the held call with the connected one into a 3-way call. */
  merge(id?: string): Promise<boolean> {
    return this.threeWay.merge(id);
  }

  sendDtmf(digits: string, id?: string): boolean {
    return this.calls.sendDtmf(digits, id);
  }

  /** A ringing or held call's item button (accept, hold-and-accept, swap, merge, end…); which show: callButtons.ts. */
  itemAction(id: string, action: CallItemAction): boolean {
    const c = this.calls.record(id);
    if (!c) return false;
    switch (action) {
      case 'accept':
      case 'holdAndAccept':
      case 'swap':
        return this.calls.accept(id, 'hold');
      case 'endAndAccept':
        return this.calls.accept(id, 'end');
      case 'end':
        return this.calls.hangup(id);
      case 'dismiss':
        return c.state === 'incoming' ? this.calls.decline(id) : this.calls.hangup(id);
      case 'merge':
        void this.threeWay.merge(id);
        return true;
    }
  }

  /** The recording button: Start, then Pause and Resume in turn. */
  toggleRecording(id?: string): Promise<boolean> {
    return this.recording.toggle(id);
  }

  // ---- transfers --------------------------------------------------------------------------------

  blindTransfer(target: string, id?: string): boolean {
    return this.transfers.blindTransfer(target, id);
  }

  /** Moves the call to the user's own desk phone. */
  moveToDesk(id?: string): boolean {
    return this.transfers.moveToDesk(id);
  }

  transferToVoicemail(target: string, id?: string): boolean {
    return this.transfers.transferToVoicemail(target, id);
  }

  startAttendedTransfer(target: string, id?: string): Promise<boolean> {
    return this.transfers.startAttendedTransfer(target, id);
  }

  completeTransfer(id?: string): boolean {
    return this.transfers.completeTransfer(id);
  }

  cancelTransfer(id?: string): boolean {
    return this.transfers.cancelTransfer(id);
  }

  /** "Test connection": a few seconds' call to the echo number, measured; never throws. */
  testConnection(onProgress?: (p: ConnectionTestProgress) => void): Promise<ConnectionTestOutcome> {
    return this.connectionTest.run(onProgress);
  }

  // ---- audio devices ------------------------------------------------------------------------------

  /** The user started dialling: the microphone opens now, so that placing the call does not wait for it. */
  warmMicrophone(): void {
    this.microphone.warm();
  }

  /** Uses another microphone, now in every connected or held call, and for the next calls. */
  setInputDevice(deviceId: string | null): Promise<boolean> {
    return this.microphone.setInput(deviceId, this.calls.sessionsIn('active', 'hold'));
  }

  /** Plays calls on another speaker (now and for the next calls). */
  setOutputDevice(deviceId: string | null): void {
    this.microphone.setOutput(deviceId);
  }

  /** Preferences ▸ Audio: devices and processing, for the next calls and the connected or held ones. */
  setAudio(change: Partial<AudioChoice>): Promise<boolean> {
    return this.microphone.setAudio(change, this.calls.sessionsIn('active', 'hold'));
  }

  /** A short tone on an output, the way the ring plays (WebAudio routed to the device). */
  testTone(deviceId: string | null): Promise<void> {
    return this.deps.tones.test(deviceId);
  }
}
