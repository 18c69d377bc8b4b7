import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxy } from 'valtio';
import { ApiError } from '../../../kernel';
import { CALLING_NOTICE_MS, ClickDialer, clickDialText, type ClickDialState, type ClickDialStore } from './clickDial';

const store = (): ClickDialStore => proxy({ clickDialOn: false, clickDial: null });
const refusal = (status: number, error: string, extra: { retry_after?: number } = {}) => new ApiError(status, { error, message: error, ...extra });
/** A POST that waits for the test to settle it. */
function pendingApi() {
  let settle!: { resolve: (v: unknown) => void; reject: (e: unknown) => void };
  const post = vi.fn(() => new Promise((resolve, reject) => (settle = { resolve, reject })));
  return { api: { post } as never as { post: typeof post }, settle: () => settle };
}

afterEach(() => vi.useRealTimers());

describe('ClickDialer', () => {
  it('follows the saved option: on only for an enabled setting', () => {
    const s = store();
    const d = new ClickDialer({ post: vi.fn() } as never, s);
    d.adopt({ enabled: true, device: 'desk' });
    expect(s.clickDialOn).toBe(true);
    d.adopt(false);
    expect(s.clickDialOn).toBe(false);
    d.adopt({ enabled: true, device: 'mobile' });
    expect(s.clickDialOn).toBe(false);
  });

  it('ringing while the desk phone rings, then calling, which goes by itself; each state announced', async () => {
    vi.useFakeTimers();
    const s = store();
    const seen: ClickDialState[] = [];
    const { api, settle } = pendingApi();
    const d = new ClickDialer(api as never, s, (st) => seen.push(st));
    const placed = d.place('5551234567', 'Ana');
    expect(api.post).toHaveBeenCalledWith('/v1/calls/click-dial', { number: '5551234567' }, expect.anything());
    expect(s.clickDial).toEqual({ phase: 'ringing', name: 'Ana' });
    // A second Call while the desk phone rings does not ring it again.
    await d.place('1002', 'Bob');
    expect(api.post).toHaveBeenCalledTimes(1);
    settle().resolve({ state: 'calling', device: 'desk', number: '5551234567' });
    await placed;
    expect(s.clickDial).toEqual({ phase: 'calling', name: 'Ana' });
    expect(seen.map((x) => x.phase)).toEqual(['ringing', 'calling']);
    vi.advanceTimersByTime(CALLING_NOTICE_MS);
    expect(s.clickDial).toBeNull();
  });

  it('a desk phone that did not answer, a refusal or a network failure: failed with its reason, until dismissed', async () => {
    const cases: Array<[unknown, ClickDialState]> = [
      [refusal(409, 'device_no_answer'), { phase: 'failed', name: 'Ana', reason: 'device_no_answer' }],
      [refusal(409, 'no_desk_phone'), { phase: 'failed', name: 'Ana', reason: 'no_desk_phone' }],
      [refusal(429, 'too_many_click_dials', { retry_after: 42 }), { phase: 'failed', name: 'Ana', reason: 'too_many_click_dials', retryAfter: 42 }],
      [refusal(400, 'validation_failed'), { phase: 'failed', name: 'Ana', reason: 'validation_failed' }],
      [refusal(500, 'internal'), { phase: 'failed', name: 'Ana', reason: 'other' }],
      [new TypeError('Failed to fetch'), { phase: 'failed', name: 'Ana', reason: 'other' }],
    ];
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    for (const [thrown, expected] of cases) {
      const s = store();
      const d = new ClickDialer({ post: vi.fn(() => Promise.reject(thrown)) } as never, s);
      await d.place('5551234567', 'Ana');
      expect(s.clickDial).toEqual(expected);
      d.dismiss();
      expect(s.clickDial).toBeNull();
    }
    err.mockRestore();
  });

  it('an outcome that arrives after the phone stopped changes nothing', async () => {
    const s = store();
    const { api, settle } = pendingApi();
    const d = new ClickDialer(api as never, s);
    const placed = d.place('1002', 'Bob');
    d.dispose();
    settle().resolve({ state: 'calling', device: 'desk', number: '1002' });
    await placed;
    expect(s.clickDial).toBeNull();
  });

  it('says what happens in words', () => {
    const t = (key: string, v?: Record<string, unknown>) => `${key}${v ? JSON.stringify(v) : ''}`;
    expect(clickDialText({ phase: 'ringing', name: 'Ana' }, t)).toBe('telephony:clickDial.ringing{"name":"Ana"}');
    expect(clickDialText({ phase: 'failed', name: 'Ana', reason: 'too_many_click_dials', retryAfter: 9 }, t)).toBe(
      'telephony:clickDial.failed{"name":"Ana"} telephony:clickDial.errors.too_many_click_dials{"seconds":9}',
    );
  });
});
