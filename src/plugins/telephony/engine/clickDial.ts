import { ApiError, type ApiClient } from '../../../kernel';
import { CLICK_DIAL_ERRORS, ClickDialResponse, ClickDialSetting } from '../../../wire/clickDial';
import { log } from '../log';

/**
 * "Call my phone first" in the browser: with the option on, Call asks the API to ring the user's
 * desk phone (`POST /v1/calls/click-dial`), which answers once the desk phone has been picked up and
 * is calling the number, or says why not. What the user sees follows `ClickDialState`.
 */
export type ClickDialState =
  | { phase: 'ringing'; name: string }
  | { phase: 'calling'; name: string }
  | { phase: 'failed'; name: string; reason: ClickDialFailure; retryAfter?: number };

/** The API's refusals the user is told apart (validation_failed: a number the desk phone cannot call). */
const CODES = [...Object.values(CLICK_DIAL_ERRORS), 'validation_failed'] as const;
export type ClickDialFailure = (typeof CODES)[number] | 'other';

/** Where the state lives (the phone's store) and the option as last read or saved. */
export interface ClickDialStore {
  clickDialOn: boolean;
  clickDial: ClickDialState | null;
}

/** "Your desk phone is calling …" goes by itself after this long; a failure stays until dismissed. */
export const CALLING_NOTICE_MS = 8000;

export class ClickDialer {
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly api: Pick<ApiClient, 'post'>,
    private readonly store: ClickDialStore,
    /** Tells screen readers of each new state (the notice itself is not a live region). */
    private readonly announce: (state: ClickDialState) => void = () => undefined,
  ) {}

  /** The saved preference (`false`: never saved), as the Preferences store answers it. */
  adopt(value: unknown): void {
    const parsed = ClickDialSetting.safeParse(value);
    this.store.clickDialOn = parsed.success && parsed.data.enabled;
  }

  /** Rings the desk phone for `number`; resolves when the outcome is known (never rejects). */
  async place(number: string, name: string): Promise<void> {
    if (this.store.clickDial?.phase === 'ringing') return;
    const mine = ++this.seq;
    this.clearTimer();
    this.store.clickDial = { phase: 'ringing', name };
    this.announce(this.store.clickDial);
    let next: ClickDialState;
    try {
      await this.api.post('/v1/calls/click-dial', { number }, ClickDialResponse);
      next = { phase: 'calling', name };
    } catch (err) {
      const code = err instanceof ApiError ? err.body.error : '';
      const reason = (CODES as readonly string[]).includes(code) ? (code as ClickDialFailure) : 'other';
      if (reason === 'other') log.error('click-dial failed', err);
      const retryAfter = err instanceof ApiError ? err.body.retry_after : undefined;
      next = { phase: 'failed', name, reason, ...(retryAfter !== undefined && { retryAfter }) };
    }
    if (mine !== this.seq) return;
    this.store.clickDial = next;
    this.announce(next);
    if (next.phase === 'calling') this.timer = setTimeout(() => this.dismiss(), CALLING_NOTICE_MS);
  }

  dismiss(): void {
    this.clearTimer();
    if (this.store.clickDial?.phase !== 'ringing') this.store.clickDial = null;
  }

  dispose(): void {
    this.seq++;
    this.clearTimer();
    this.store.clickDial = null;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** What the notice says (and what is announced) for a state. */
export function clickDialText(state: ClickDialState, t: (key: string, values?: Record<string, unknown>) => string): string {
  if (state.phase !== 'failed') return t(`telephony:clickDial.${state.phase}`, { name: state.name });
  return `${t('telephony:clickDial.failed', { name: state.name })} ${t(`telephony:clickDial.errors.${state.reason}`, { seconds: state.retryAfter ?? 60 })}`;
}
