import type { ToastInput } from '../../../kernel';
import { ApiError } from '../../../kernel';
import { REG_CLIENT, REG_RENEW_SECONDS, RegActiveResponse } from '../../../wire/services';
import { phone } from '../state';
import type { CallTable } from './calls';
import type { EngineDeps } from './deps';
import type { UserAgent } from './userAgent';
import { log } from '../log';

export type RegistrationDeps = Pick<EngineDeps, 'api' | 'notify' | 'peer' | 'channel'>;

/**
 * Which tab has the phone: this tab registers only while it holds the user's registration
 * (`/v1/regreserve`), renewed every REG_RENEW_SECONDS; otherwise the phone is "elsewhere", with a
 * notice to take it over. Tabs of the same browser tell each other of a takeover at once.
 */
export class Registration {
  private holdTimer: ReturnType<typeof setTimeout> | null = null;
  private elsewhereToast: string | null = null;
  /** Whether the server's last answer said this tab holds the registration. */
  private holding = false;
  private disposed = false;

  constructor(
    private readonly deps: RegistrationDeps,
    private readonly agent: Pick<UserAgent, 'current' | 'connect' | 'stop' | 'reportConnection'>,
    private readonly calls: Pick<CallTable, 'hasLiveSessions'>,
  ) {
    deps.channel?.onMessage((m) => {
      // Another tab of this browser took the phone: learn it now rather than at the next renewal.
      if (m.type === 'takeover' && m.peer !== deps.peer) void this.renewHold();
    });
  }

  /** "Use calling here": take the registration from whichever tab or browser holds it. */
  async takeOver(): Promise<void> {
    if (phone.status !== 'elsewhere') return;
    phone.status = 'connecting';
    await this.reserve(true);
  }

  async reserve(takeover: boolean): Promise<void> {
    const res = await this.askHold(takeover);
    if (this.disposed || !res) return;
    this.holding = res.granted === true;
    if (res.granted) {
      // Only once the hold is ours, or a tab asking at once could still renew the old one.
      if (takeover) this.deps.channel?.post({ type: 'takeover', peer: this.deps.peer });
      this.clearElsewhere();
      if (!this.agent.current()) await this.agent.connect();
    } else {
      this.toElsewhere();
    }
    this.scheduleHoldRenewal();
  }

  /** The server's answer, or null when it failed (the reason is already shown or scheduled). */
  private async askHold(takeover: boolean): Promise<RegActiveResponse | null> {
    try {
      return await this.deps.api.post('/v1/regreserve', { peer: this.deps.peer, client: REG_CLIENT, ...(takeover ? { takeover: true } : {}) }, RegActiveResponse);
    } catch (err) {
      if (this.disposed) return null;
      if (err instanceof ApiError && err.status === 404) {
        phone.status = 'unconfigured';
        this.agent.stop();
        return null;
      }
      log.error('registration reservation failed', err);
      if (!this.agent.current()) {
        phone.status = 'error';
        this.agent.reportConnection('error');
        this.scheduleHoldRenewal();
      }
      return null;
    }
  }

  private scheduleHoldRenewal(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    if (this.disposed || phone.status === 'unconfigured') return;
    this.holdTimer = setTimeout(() => void this.renewHold(), REG_RENEW_SECONDS * 1000);
  }

  /** Every REG_RENEW_SECONDS: keep the hold, notice that it was taken, or pick up a freed one. */
  async renewHold(): Promise<void> {
    if (this.disposed || phone.status === 'unconfigured') return;
    const res = await this.askHold(false);
    if (this.disposed) return;
    if (res) this.holding = res.granted === true;
    if (res?.granted) {
      if (!this.agent.current()) {
        this.clearElsewhere();
        await this.agent.connect();
      }
    } else if (res && this.agent.current()) {
      this.lost();
    } else if (res) {
      this.toElsewhere();
    }
    this.scheduleHoldRenewal();
  }

  /** Another tab or browser took the registration over: stop here, and say so. */
  private lost(): void {
    const withCalls = this.calls.hasLiveSessions();
    this.agent.stop();
    phone.status = 'elsewhere';
    this.showElsewhere(withCalls ? 'telephony:notices.movedWithCalls' : 'telephony:notices.moved');
  }

  private toElsewhere(): void {
    // Told once per episode: a dismissed notice does not come back at every renewal.
    if (phone.status === 'elsewhere') return;
    this.agent.stop();
    phone.status = 'elsewhere';
    this.showElsewhere('telephony:notices.elsewhere');
  }

  showElsewhere(messageKey: string): void {
    if (this.elsewhereToast) this.deps.notify.dismiss(this.elsewhereToast);
    const toast: ToastInput = {
      tone: 'warning',
      titleKey: 'telephony:notices.elsewhereTitle',
      messageKey,
      timeoutMs: null,
      action: { labelKey: 'telephony:commands.takeOver', run: () => void this.takeOver() },
      onClose: () => {
        this.elsewhereToast = null;
      },
    };
    this.elsewhereToast = this.deps.notify.toast(toast);
  }

  private clearElsewhere(): void {
    if (this.elsewhereToast) this.deps.notify.dismiss(this.elsewhereToast);
    this.elsewhereToast = null;
  }

  /**
   * Gives the registration hold back (the tab is closing or the user signs out), so that the
   * user's other tab or browser gets the phone at its next renewal instead of 90 s later. Sent with
   * keepalive: it must outlive the page.
   */
  releaseHold(): void {
    if (!this.holding) return;
    this.holding = false;
    this.deps.api
      .request('POST', '/v1/regreserve', { body: { peer: this.deps.peer, client: REG_CLIENT, release: true }, keepalive: true })
      .catch((err: unknown) => log.error('releasing the registration failed', err));
  }

  /** The phone stops: no more renewals, and answers still on their way are ignored. */
  dispose(): void {
    this.disposed = true;
    if (this.holdTimer) clearTimeout(this.holdTimer);
  }

  /** Once the user agent has stopped too: the notice goes and the tab channel closes. */
  close(): void {
    this.clearElsewhere();
    this.deps.channel?.close();
  }
}
