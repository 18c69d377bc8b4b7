import { isBusyState } from '../model/callState';
import { parseDialString, sanitizeDialString, type DtmfStep } from '../model/dialString';
import { sipUri } from '../model/sip';
import { phone } from '../state';
import { cannotCall, type CallTable } from './calls';
import { callTarget } from './callTarget';
import type { EngineDeps } from './deps';
import { callOptions } from './microphone';
import type { UaLike } from './types';
import { log } from '../log';

export type DialDeps = Pick<EngineDeps, 'notify' | 'sip' | 'lookupName' | 'speedDial' | 'rememberDialled' | 'contacts' | 'clickDial' | 'placed'>;

/** What placing a call needs from the rest of the phone. */
export interface Line {
  /** The registered user agent, if any. */
  ua(): UaLike | null;
  /** Tells the user that another tab or browser has the phone. */
  elsewhere(): void;
  openMicrophone(): Promise<MediaStream | null | 'denied'>;
}

/** Placing calls: what the user typed or picked becomes a SIP address, its DTMF, and a new call in the table. */
export class Dialler {
  /** A call is being placed (its microphone is opening). */
  private placing = false;

  constructor(
    private readonly deps: DialDeps,
    private readonly calls: CallTable,
    private readonly line: Line,
  ) {}

  private error(messageKey: string, values?: Record<string, unknown>): void {
    cannotCall(this.deps.notify, messageKey, values);
  }

  /**
   * Places a call. `target` is what the user typed or picked: a number (sanitised to digits, comma,
   * # and *; commas add DTMF after 2 s each), `#<shortcut>` for speed dial, or a `sip:` address.
   */
  async call(target: string, opts: { displayName?: string; consultFor?: string } = {}): Promise<void> {
    if (phone.status === 'unconfigured') return this.error('telephony:reasons.notConfigured');
    if (phone.status === 'elsewhere') return this.line.elsewhere();
    let number: string;
    let dtmf: DtmfStep[] = [];
    let dialled: string;
    if (/^sips?:/i.test(target.trim())) {
      number = target.trim();
      dialled = number;
    } else {
      let plan = parseDialString(target);
      dialled = sanitizeDialString(target);
      if (plan.kind === 'speedDial') {
        const service = this.deps.speedDial?.();
        if (!service) return this.error('telephony:errors.noSpeedDial');
        const resolved = await service.resolve(plan.shortcut).catch(() => null);
        if (!resolved) return this.error('telephony:errors.unknownShortcut', { shortcut: plan.shortcut });
        plan = parseDialString(resolved);
        if (plan.kind === 'speedDial') return this.error('telephony:errors.unknownShortcut', { shortcut: plan.shortcut });
      }
      if (plan.kind === 'empty') return this.error('telephony:errors.emptyNumber');
      number = plan.number;
      dtmf = plan.dtmf;
    }
    // "Call my phone first": the desk phone places the call, not this browser (a sip: address or a
    // consultation call stays here; the DTMF after commas is for the user to key on the desk phone).
    if (phone.clickDialOn && this.deps.clickDial && !opts.consultFor && !/^sips?:/i.test(number)) {
      phone.lastDialled = dialled;
      this.deps.rememberDialled?.(dialled);
      this.deps.placed?.();
      return this.deps.clickDial(number, opts.displayName || this.deps.lookupName?.(number) || number);
    }
    if (this.calls.allCalls().some((c) => isBusyState(c.state) && c.id !== opts.consultFor)) return this.error('telephony:reasons.busy');
    const ua = this.line.ua();
    if (!ua || phone.status !== 'ready') return this.error('telephony:reasons.notReady');
    const id = this.calls.newId();
    const displayName = opts.displayName || this.deps.lookupName?.(number) || null;
    // The microphone opens first, while nothing else is going on: JsSIP would only ask for it after
    // setting the call up, and the dock's first paint would then delay the INVITE as well.
    // A second press while the microphone opens must not place a second call.
    if (this.placing) return;
    this.placing = true;
    const microphone = await this.line.openMicrophone().finally(() => (this.placing = false));
    if (microphone === 'denied') return;
    if (this.line.ua() !== ua || phone.status !== 'ready') {
      microphone?.getTracks().forEach((t) => t.stop());
      return this.error('telephony:reasons.notReady');
    }
    try {
      this.calls.dial({ id, number, displayName, dtmf, consultFor: opts.consultFor ?? null }, microphone, () =>
        ua.call(sipUri(number, this.deps.sip.domain), microphone ? { ...callOptions(), mediaStream: microphone } : callOptions()),
      );
      this.deps.placed?.();
    } catch (err) {
      log.error('call failed to start', err);
      this.deps.notify.toast({ tone: 'error', titleKey: 'telephony:errors.callFailedTitle', messageKey: 'telephony:errors.callFailed.other', values: { name: displayName || number } });
    }
    phone.lastDialled = dialled;
    this.deps.rememberDialled?.(dialled);
  }

  /** "Call ▸" from the palette: typed text, or a contact picked from the contacts provider. */
  callChoice(value: unknown): Promise<void> {
    const target = callTarget(value, this.deps.contacts?.());
    if (!target) {
      this.error('telephony:errors.noNumber');
      return Promise.resolve();
    }
    return this.call(target.target, { displayName: target.displayName });
  }
}
