import { proxy } from 'valtio';
import { toDisposable, type ConnectionHandle, type ConnectionReporter, type ConnectionState } from '../kernel';

/** Retry delays after a connection drops, in seconds (specification); then one manual retry; then silence. */
export const RETRY_SCHEDULE_S = [0, 15, 30, 60, 300] as const;
export const SUCCESS_BANNER_MS = 2000;

export type BannerPhase = 'hidden' | 'connecting' | 'retrying' | 'manual' | 'success' | 'silent';

export interface ConnectionView {
  id: string;
  labelKey: string;
  state: ConnectionState;
  phase: BannerPhase;
  /** Seconds until the next automatic retry, while retrying. */
  nextRetryAt: number | null;
  /** The success banner follows a drop ("connected again"), not the first connection after sign-in. */
  again: boolean;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Follows each protocol connection a plugin reports and drives the banner: connecting shows a
 * message; a drop retries after 0, 15, 30, 60 and 300 s; then the banner offers a manual retry;
 * if that fails too it goes silent. Connected closes it after a 2 s success banner.
 */
export class Connections implements ConnectionReporter {
  readonly views = proxy<Record<string, ConnectionView>>({});
  private readonly attempts = new Map<string, number>();
  private readonly timers = new Map<string, unknown>();
  private readonly reconnectors = new Map<string, () => void>();
  private readonly hadManual = new Set<string>();
  private readonly everConnected = new Set<string>();

  constructor(private readonly clock: Clock = realClock) {}

  register(id: string, labelKey: string, reconnect: () => void): ConnectionHandle {
    this.views[id] = { id, labelKey, state: 'connecting', phase: 'hidden', nextRetryAt: null, again: false };
    this.reconnectors.set(id, reconnect);
    const disposable = toDisposable(() => {
      this.clearTimer(id);
      this.reconnectors.delete(id);
      this.attempts.delete(id);
      this.hadManual.delete(id);
      this.everConnected.delete(id);
      delete this.views[id];
    });
    return { report: (state) => this.report(id, state), dispose: () => disposable.dispose() };
  }

  /** The banner's Retry button. */
  retryNow(id: string): void {
    this.hadManual.add(id);
    const v = this.views[id];
    if (v) v.phase = 'connecting';
    this.reconnectors.get(id)?.();
  }

  private report(id: string, state: ConnectionState): void {
    const v = this.views[id];
    if (!v) return;
    const wasDown = v.phase !== 'hidden' && v.phase !== 'success';
    v.state = state;
    switch (state) {
      case 'connected':
      case 'reconnected':
        this.clearTimer(id);
        this.attempts.set(id, 0);
        this.hadManual.delete(id);
        v.nextRetryAt = null;
        v.again = this.everConnected.has(id) || state === 'reconnected';
        this.everConnected.add(id);
        if (wasDown || state === 'reconnected') {
          v.phase = 'success';
          this.timers.set(
            id,
            this.clock.setTimeout(() => {
              if (this.views[id]?.phase === 'success') this.views[id]!.phase = 'hidden';
            }, SUCCESS_BANNER_MS),
          );
        } else v.phase = 'hidden';
        break;
      case 'connecting':
        if (v.phase !== 'silent') v.phase = v.phase === 'retrying' ? 'retrying' : 'connecting';
        break;
      case 'disconnecting':
        break;
      case 'disconnected':
      case 'error':
        this.scheduleRetry(id);
        break;
    }
  }

  private scheduleRetry(id: string): void {
    const v = this.views[id]!;
    this.clearTimer(id);
    if (v.phase === 'silent') return;
    if (this.hadManual.has(id)) {
      v.phase = 'silent';
      v.nextRetryAt = null;
      return;
    }
    const attempt = this.attempts.get(id) ?? 0;
    const delay = RETRY_SCHEDULE_S[attempt];
    if (delay === undefined) {
      v.phase = 'manual';
      v.nextRetryAt = null;
      return;
    }
    this.attempts.set(id, attempt + 1);
    v.phase = 'retrying';
    v.nextRetryAt = this.clock.now() + delay * 1000;
    this.timers.set(
      id,
      this.clock.setTimeout(() => {
        this.reconnectors.get(id)?.();
      }, delay * 1000),
    );
  }

  private clearTimer(id: string): void {
    const t = this.timers.get(id);
    if (t !== undefined) this.clock.clearTimeout(t);
    this.timers.delete(id);
  }
}
