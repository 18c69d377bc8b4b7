import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, PROFILE_REFRESH_MS, startProfileLoader } from './profileLoader';

describe('the profile loader', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits 500 ms, then doubles, and never more than 16 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12].map(backoffDelay)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 16000, 16000]);
  });

  /** A load that fails `failing` times, then answers; the instants of each try, from the start. */
  function setup(failing: number) {
    const start = Date.now();
    const tries: number[] = [];
    const load = vi.fn(() => {
      tries.push(Date.now() - start);
      return tries.length <= failing ? Promise.reject(new Error('down')) : Promise.resolve({ n: tries.length });
    });
    const onData = vi.fn();
    const onFailure = vi.fn();
    const loader = startProfileLoader({ load, onData, onFailure });
    return { tries, load, onData, onFailure, loader };
  }

  it('retries a failing load after 500 ms, 1 s, 2 s … 16 s, 16 s, and stops retrying once loaded', async () => {
    const { tries, onData, loader } = setup(8);
    await vi.advanceTimersByTimeAsync(0);
    expect(tries).toEqual([0]);
    await vi.advanceTimersByTimeAsync(499);
    expect(tries).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(tries).toEqual([0, 500]);
    await vi.advanceTimersByTimeAsync(60_000);
    // 0, +500, +1000, +2000, +4000, +8000, +16000, +16000, then success on the ninth.
    expect(tries).toEqual([0, 500, 1500, 3500, 7500, 15500, 31500, 47500, 63500].filter((t) => t <= 60_500));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(tries).toHaveLength(9);
    expect(onData).toHaveBeenCalledWith({ n: 9 });
    loader.stop();
  });

  it('tells the user once, after the first retry failed, and the retry it offers tries at once', async () => {
    const { tries, onFailure, loader } = setup(3);
    await vi.advanceTimersByTimeAsync(0);
    expect(onFailure).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(500);
    expect(onFailure).toHaveBeenCalledTimes(1);
    const retry = onFailure.mock.calls[0]![1] as () => void;
    await vi.advanceTimersByTimeAsync(100);
    retry(); // the toast tapped 600 ms in, before the 1 s wait is over
    await vi.advanceTimersByTimeAsync(0);
    expect(tries).toEqual([0, 500, 600]);
    // That third failure waits 2 s; the fourth try succeeds.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(tries).toEqual([0, 500, 600, 2600]);
    expect(onFailure).toHaveBeenCalledTimes(1);
    loader.stop();
  });

  it('reads the profile again every 600000 ms while it loads, and nothing after stop', async () => {
    const { tries, onData, loader } = setup(0);
    await vi.advanceTimersByTimeAsync(PROFILE_REFRESH_MS - 1);
    expect(tries).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(tries).toEqual([0, PROFILE_REFRESH_MS]);
    await vi.advanceTimersByTimeAsync(PROFILE_REFRESH_MS);
    expect(tries).toEqual([0, PROFILE_REFRESH_MS, 2 * PROFILE_REFRESH_MS]);
    expect(onData).toHaveBeenCalledTimes(3);
    loader.stop();
    await vi.advanceTimersByTimeAsync(3 * PROFILE_REFRESH_MS);
    expect(tries).toHaveLength(3);
  });

  it('ignores a slow answer to an earlier try once a later try was made', async () => {
    let resolveFirst!: (v: string) => void;
    const load = vi.fn().mockImplementationOnce(() => new Promise<string>((r) => (resolveFirst = r))).mockResolvedValue('second');
    const onData = vi.fn();
    const loader = startProfileLoader({ load, onData, onFailure: vi.fn() });
    loader.retry();
    await vi.advanceTimersByTimeAsync(0);
    resolveFirst('first');
    await vi.advanceTimersByTimeAsync(0);
    expect(onData.mock.calls).toEqual([['second']]);
    loader.stop();
  });
});
