import { proxy } from 'valtio';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, Api, ApiError, Kernel, Notifications, Session, type SessionInfo, type ToastInput } from '../../kernel';
import { PROFILE_REFRESH_MS } from './profileLoader';
import { keepProfileFresh } from './profileSync';

const PROFILE = { user_id: 7, first_name: 'Alice', last_name: 'Nguyen' };

/** The app after sign-in: the session holds the profile that came with it; `answers` are the server's next replies (then it is back). */
function setup(answers: ('down' | 'ok')[] = []) {
  const kernel = new Kernel({ features: allFeatures(true) });
  const calls: number[] = [];
  const start = Date.now();
  const get = vi.fn(async () => {
    calls.push(Date.now() - start);
    if (answers.shift() === 'down') throw new ApiError(503, { error: 'unavailable', message: 'Try later' });
    return { ...PROFILE, last_name: `Nguyen-${calls.length}` };
  });
  kernel.provide(Api, { get } as never);
  const profile = proxy({ ...PROFILE });
  kernel.provide(Session, { userId: 7, profile } as unknown as SessionInfo);
  const toast = vi.fn((_t: ToastInput) => 'toast');
  kernel.provide(Notifications, { toast, dismiss: () => undefined, announce: () => undefined });
  const stop = keepProfileFresh(kernel);
  return { calls, profile, toast, stop };
}

describe('the signed-in user\'s profile, app-wide', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is read again every 600000 ms from sign-in (whose copy is the first load), into the session the account menu shows', async () => {
    const { calls, profile, stop } = setup();
    await vi.advanceTimersByTimeAsync(PROFILE_REFRESH_MS - 1);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual([PROFILE_REFRESH_MS]);
    expect(profile.last_name).toBe('Nguyen-1');
    await vi.advanceTimersByTimeAsync(PROFILE_REFRESH_MS);
    expect(calls).toEqual([PROFILE_REFRESH_MS, 2 * PROFILE_REFRESH_MS]);
    expect(profile.last_name).toBe('Nguyen-2');
    stop();
    await vi.advanceTimersByTimeAsync(3 * PROFILE_REFRESH_MS);
    expect(calls).toHaveLength(2);
  });

  it('a failed read is retried after 500 ms; when that fails too, an 8 s toast whose tap or hiding tries again at once', async () => {
    const { calls, profile, toast, stop } = setup(['down', 'down', 'down', 'down']);
    await vi.advanceTimersByTimeAsync(PROFILE_REFRESH_MS);
    expect(toast).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toEqual([PROFILE_REFRESH_MS, PROFILE_REFRESH_MS + 500]);
    expect(toast).toHaveBeenCalledTimes(1);
    const shown = toast.mock.calls[0]![0];
    expect(shown).toMatchObject({ tone: 'error', titleKey: 'preferences:profile.loadFailedTitle', messageKey: 'preferences:profile.loadFailedMessage', timeoutMs: 8000 });
    // Tapped 100 ms later, before the 1 s wait is over: tried at once (it fails again).
    await vi.advanceTimersByTimeAsync(100);
    shown.action!.run();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(3);
    expect(calls[2]).toBe(PROFILE_REFRESH_MS + 600);
    // Hidden: tried at once again; that fourth failure waits 4 s (back-off), and the fifth try succeeds.
    shown.onClose!();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(3_999);
    expect(calls).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(5);
    expect(profile.last_name).toBe('Nguyen-5');
    expect(toast).toHaveBeenCalledTimes(1);
    stop();
  });
});
