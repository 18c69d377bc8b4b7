import { deskPhoneUri } from '../../../wire/calling';
import { parseDialString } from '../model/dialString';
import { extensionOf, sipUri } from '../model/sip';
import { transferableCallId } from '../model/transfer';
import { phone, type CallRecord } from '../state';
import { cannotCall, nameOf, type CallTable } from './calls';
import type { EngineDeps } from './deps';
import type { Dialler } from './outgoing';
import type { ReferLike, SessionLike } from './types';
import { log } from '../log';

/** After a transfer fails (or its consultation call ends) its state shows this long, then resets. */
export const TRANSFER_RESET_MS = 2000;

export type TransferDeps = Pick<EngineDeps, 'notify' | 't' | 'sip' | 'lookupName'>;

/**
 * Transfers: blind (REFER), to voicemail, to the user's desk phone, and attended (consult first,
 * then REFER with Replaces), with their failures. They act on the call table's calls.
 */
export class Transfers {
  constructor(
    private readonly deps: TransferDeps,
    private readonly calls: CallTable,
    private readonly dialler: Pick<Dialler, 'call'>,
    /** The user's own address (`sip:<extension>@<domain>`), once the user agent has credentials. */
    private readonly ownUri: () => string | null,
  ) {
    calls.onEnded((c) => this.unlinkConsultation(c));
  }

  private error(messageKey: string): void {
    cannotCall(this.deps.notify, messageKey);
  }

  /** The call a transfer acts on: connected or held, and not itself a consultation call. */
  private transferable(id: string | undefined): { c: CallRecord; session: SessionLike } | null {
    const c = this.calls.record(id);
    const session = this.calls.session(id);
    if (!c || !session || (c.state !== 'active' && c.state !== 'hold') || c.consultFor) return null;
    return { c, session };
  }

  /** The call a transfer with no id means: the connected call, else the newest held one. */
  transferId(): string | undefined {
    return transferableCallId(phone.calls);
  }

  private transferUri(target: string): { uri: string; label: string } | null {
    const t = target.trim();
    if (/^sips?:/i.test(t)) return { uri: t, label: t };
    const plan = parseDialString(t);
    if (plan.kind !== 'number') return null;
    return { uri: sipUri(plan.number, this.deps.sip.domain), label: this.deps.lookupName?.(plan.number) || plan.number };
  }

  /** The call to transfer and where to, or null after telling the user why not. */
  private transferOf(target: string, id: string | undefined): { t: { c: CallRecord; session: SessionLike }; to: { uri: string; label: string } } | null {
    const t = this.transferable(id);
    if (!t) {
      this.error('telephony:errors.noActiveCall');
      return null;
    }
    const to = this.transferUri(target);
    if (!to) {
      this.error('telephony:errors.emptyNumber');
      return null;
    }
    return { t, to };
  }

  /**
   * Blind transfer: the call is held and its far end asked (REFER) to call `target`; our leg ends
   * once that call is answered. On failure the call stays held, to be resumed or transferred again.
   */
  blindTransfer(target: string, id = this.transferId()): boolean {
    const prepared = this.transferOf(target, id);
    if (!prepared) return false;
    this.referBlind(prepared.t, prepared.to);
    return true;
  }

  /**
   * Move the call to the user's own desk phone: a blind transfer to their extension marked
   * `;device=desk`, which Kamailio rings on their phones that are not browsers only. Until the desk
   * phone is picked up the call stays here, held; if it is not, the call can be resumed.
   */
  moveToDesk(id = this.transferId()): boolean {
    const t = this.transferable(id);
    if (!t) {
      this.error('telephony:errors.noActiveCall');
      return false;
    }
    const extension = extensionOf(this.ownUri());
    if (!extension) return false;
    this.referBlind(t, { uri: deskPhoneUri(extension, this.deps.sip.domain), label: this.deps.t('telephony:transfer.deskPhone') });
    return true;
  }

  private referBlind(t: { c: CallRecord; session: SessionLike }, to: { uri: string; label: string }): void {
    if (t.c.state === 'active') t.session.hold();
    t.c.transfer = { kind: 'blind', target: to.label, status: 'pending' };
    this.deps.notify.announce(this.deps.t('telephony:announce.transferring', { name: nameOf(t.c), to: to.label }), 'polite');
    this.sendRefer(t.c.id, t.session, to.uri);
  }

  /**
   * Transfer to a colleague's voicemail: a blind transfer to their extension followed by `*`
   * (specification), which Kamailio sends to the voicemail phone. Only extensions have mailboxes.
   */
  transferToVoicemail(target: string, id = this.transferId()): boolean {
    const plan = parseDialString(target.trim());
    if (plan.kind !== 'number' || !/^[0-9]{1,5}$/.test(plan.number)) {
      this.error('telephony:errors.voicemailNeedsExtension');
      return false;
    }
    const call = this.transferable(id)?.c;
    if (!this.blindTransfer(`${plan.number}*`, id)) return false;
    // Shown and announced as the person's voicemail, not as "1002*".
    if (call?.transfer) call.transfer.target = this.deps.t('telephony:transfer.voicemailOf', { name: this.deps.lookupName?.(plan.number) || plan.number });
    return true;
  }

  /** Attended transfer, first step: hold the call and call `target` to talk first. */
  async startAttendedTransfer(target: string, id = this.transferId()): Promise<boolean> {
    const prepared = this.transferOf(target, id);
    if (!prepared) return false;
    const { t, to } = prepared;
    if (Object.values(phone.calls).some((c) => c.consultFor === t.c.id && c.state !== 'none')) return false;
    if (t.c.state === 'active') t.session.hold();
    t.c.transfer = { kind: 'attended', target: to.label, status: 'pending' };
    await this.dialler.call(target, { consultFor: t.c.id });
    // The consultation call could not even start (the error is shown): nothing is pending any more.
    if (!this.calls.allCalls().some((c) => c.consultFor === t.c.id)) t.c.transfer = null;
    return true;
  }

  /** The consultation call of a pending attended transfer (by its id, or the original's), if any. */
  private consultation(id?: string): CallRecord | undefined {
    const all = Object.values(phone.calls).filter((c) => c.consultFor && c.state !== 'none');
    return id ? all.find((c) => c.id === id || c.consultFor === id) : all[0];
  }

  /**
   * Attended transfer, completion: the held caller is asked (REFER with Replaces) to take over our
   * consultation call, so the two talk to each other and both our legs end.
   */
  completeTransfer(id?: string): boolean {
    const consult = this.consultation(id);
    const original = consult?.consultFor ? this.calls.record(consult.consultFor) : undefined;
    const consultSession = this.calls.session(consult?.id);
    const originalSession = this.calls.session(original?.id);
    if (!consult || !original || !consultSession || !originalSession || consult.state !== 'active') return false;
    const uri = sipUri(consult.number, this.deps.sip.domain);
    this.sendRefer(original.id, originalSession, uri, consultSession, consult.id);
    return true;
  }

  /** Attended transfer, given up: the consultation call ends and the original call resumes. */
  cancelTransfer(id?: string): boolean {
    const consult = this.consultation(id);
    const original = consult?.consultFor ? this.calls.record(consult.consultFor) : undefined;
    if (!consult || !original) return false;
    original.transfer = null;
    consult.consultFor = null;
    this.calls.hangup(consult.id);
    if (original.state === 'hold') this.calls.session(original.id)?.unhold();
    return true;
  }

  private sendRefer(id: string, session: SessionLike, uri: string, replaces?: SessionLike, consultId?: string): void {
    let refer: ReferLike | false;
    try {
      refer = session.refer(uri, replaces ? { replaces } : undefined);
    } catch (err) {
      log.error('REFER failed', err);
      refer = false;
    }
    if (!refer) return this.transferFailed(id);
    let settled = false;
    const fail = () => {
      if (settled) return;
      settled = true;
      this.transferFailed(id);
    };
    refer.on('requestFailed', fail);
    refer.on('failed', fail);
    refer.on('accepted', () => {
      if (settled) return;
      settled = true;
      // The far end reached the target: our part is over.
      for (const leg of [id, consultId]) {
        if (!leg || !this.calls.session(leg)) continue;
        this.calls.handOver(leg);
        this.calls.hangup(leg);
      }
    });
  }

  /** SERVICE_SIP.TRANSFER_FAILED_MESSAGE; the call stays (held) and the transfer state resets after 2 s. */
  private transferFailed(id: string): void {
    const c = phone.calls[id];
    if (!c || !c.transfer) return;
    this.deps.notify.toast({ tone: 'error', titleKey: 'telephony:errors.transferFailedTitle', messageKey: 'telephony:errors.transferFailed', values: { name: nameOf(c), to: c.transfer.target } });
    this.markTransferFailed(c);
  }

  /** Shows the transfer as failed, then forgets it after TRANSFER_RESET_MS. */
  private markTransferFailed(c: CallRecord): void {
    if (!c.transfer) return;
    c.transfer.status = 'failed';
    this.calls.addCallTimer(
      c.id,
      setTimeout(() => {
        const now = phone.calls[c.id];
        if (now?.transfer?.status === 'failed') now.transfer = null;
      }, TRANSFER_RESET_MS),
    );
  }

  /** A consultation call or its original ended: the other one is on its own again. */
  private unlinkConsultation(ended: CallRecord): void {
    if (ended.consultFor) {
      const original = phone.calls[ended.consultFor];
      ended.consultFor = null;
      if (original?.transfer?.kind === 'attended' && !this.calls.wasHandedOver(original.id)) this.markTransferFailed(original);
    }
    for (const other of Object.values(phone.calls)) if (other.consultFor === ended.id) other.consultFor = null;
  }
}
