import { randomBytes } from 'node:crypto';

/**
 * When the phones of a meeting change as the page lists them (one joined or left, was muted,
 * started or stopped talking), so that the page's read of the list (`GET …/media/phones?wait=`)
 * can wait for the next change instead of reading again every few seconds.
 */
export interface PhoneChanges {
  changed(meetingId: number): void;
  /** A token for the meeting's phones as they are now (this process's; another process's never matches). */
  state(meetingId: number): string;
  /** Resolves once the meeting's phones are no longer as `state` says, after `ms` at most, or when `signal` aborts. */
  after(meetingId: number, state: string, ms: number, signal?: AbortSignal): Promise<void>;
}

export function phoneChanges(): PhoneChanges {
  const boot = randomBytes(4).toString('hex');
  const versions = new Map<number, number>();
  const waiting = new Map<number, Set<() => void>>();
  const state = (meetingId: number) => `${boot}.${versions.get(meetingId) ?? 0}`;
  return {
    state,
    changed(meetingId) {
      versions.set(meetingId, (versions.get(meetingId) ?? 0) + 1);
      const list = waiting.get(meetingId);
      waiting.delete(meetingId);
      for (const wake of list ?? []) wake();
    },
    after(meetingId, seen, ms, signal) {
      if (seen !== state(meetingId) || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const list = waiting.get(meetingId) ?? new Set<() => void>();
        waiting.set(meetingId, list);
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          list.delete(done);
          if (list.size === 0 && waiting.get(meetingId) === list) waiting.delete(meetingId);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done, { once: true });
        list.add(done);
      });
    },
  };
}
