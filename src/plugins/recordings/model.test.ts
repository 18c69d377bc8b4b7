import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Api, Notifications, type ServiceLookup } from '../../kernel';
import { load, playPause, resetPlayer, startRefreshing } from './api';
import { correctedStart, defaultFilter, fromWire, limitDay, PAGE_SIZE, playerDuration, rangeDays, REFRESH_MS, START_CORRECTION_MS, timestampKind, toQuery } from './model';
import { recState } from './state';

describe('recordings model', () => {
  const now = new Date(2026, 2, 20, 15, 0);

  it('ranges: all is 3 months, then past week, two weeks, past month; inclusive of today', () => {
    expect(limitDay(now)).toBe('2025-12-20');
    expect(rangeDays('all', now)).toEqual({ startDate: '2025-12-20', endDate: '2026-03-20' });
    expect(rangeDays('past-week', now)).toEqual({ startDate: '2026-03-14', endDate: '2026-03-20' });
    expect(rangeDays('two-weeks', now)).toEqual({ startDate: '2026-03-07', endDate: '2026-03-20' });
    expect(rangeDays('past-month', now)).toEqual({ startDate: '2026-02-20', endDate: '2026-03-20' });
    expect(defaultFilter(now)).toEqual({ phoneNumber: '', range: 'all', startDate: '2025-12-20', endDate: '2026-03-20' });
  });

  it('a start date earlier than 3 months ago is corrected to the limit plus one day', () => {
    expect(correctedStart('2025-12-19', now)).toBe('2025-12-21');
    expect(correctedStart('2020-01-01', now)).toBe('2025-12-21');
    expect(correctedStart('2025-12-20', now)).toBeNull();
    expect(correctedStart('', now)).toBeNull();
    // The start-date correction waits 2 s, the list pages by 50 and refreshes every 60 s.
    expect([START_CORRECTION_MS, PAGE_SIZE, REFRESH_MS]).toEqual([2000, 50, 60_000]);
  });

  it('queries page by 50 with the search term and the inclusive days', () => {
    expect(toQuery({ phoneNumber: ' 555-0143 ', range: 'custom', startDate: '2026-03-01', endDate: '2026-03-02' }, 50, 60)).toEqual({
      offset: 50,
      limit: 50,
      search_term: '555-0143',
      start_date: '2026-03-01',
      end_date: '2026-03-02',
      tz: 60,
    });
  });

  it('timestamps: time today, weekday within 7 days, otherwise the date', () => {
    expect(timestampKind(new Date(2026, 2, 20, 1).toISOString(), now)).toBe('time');
    expect(timestampKind(new Date(2026, 2, 19, 23).toISOString(), now)).toBe('weekday');
    expect(timestampKind(new Date(2026, 2, 13, 16).toISOString(), now)).toBe('weekday');
    expect(timestampKind(new Date(2026, 2, 13, 14).toISOString(), now)).toBe('date');
  });

  it("uses the listed duration when the audio element's is off by more than 50 %", () => {
    expect(playerDuration(30, 30)).toBe(30);
    expect(playerDuration(44, 30)).toBe(44);
    expect(playerDuration(46, 30)).toBe(30);
    expect(playerDuration(14, 30)).toBe(30);
    expect(playerDuration(Infinity, 30)).toBe(30);
    expect(playerDuration(NaN, 30)).toBe(30);
  });

  it('maps the wire shape', () => {
    expect(fromWire({ recording_id: 3, direction: 'IN', timestamp: '2026-03-20T14:00:00Z', remoteParty: '+1', duration: 9, media_url: '/m', cnam: ' ' })).toEqual({
      id: '3',
      direction: 'IN',
      phoneNumber: '+1',
      cnam: null,
      timestamp: '2026-03-20T14:00:00.000Z',
      durationSeconds: 9,
      mediaUrl: '/m',
    });
  });
});

function services(api: Record<string, unknown>): ServiceLookup {
  const map = new Map<unknown, unknown>([
    [Api, api],
    [Notifications, { announce: vi.fn(), toast: vi.fn(), dismiss: vi.fn() }],
  ]);
  return { get: (k) => map.get(k) as never, maybe: (k) => map.get(k) as never, has: (k) => map.has(k) };
}

const page = { items: [{ recording_id: 1, direction: 'OUT', timestamp: '2026-03-20T14:00:00Z', remoteParty: '1002', duration: 9, media_url: '/m/1', cnam: null }], total: 1, offset: 0, limit: 50 };

describe('recordings player and refresh', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetPlayer();
  });
  afterEach(() => {
    vi.useRealTimers();
    resetPlayer();
  });

  it('a failover block makes the recording unavailable (failed), without fetching its audio', async () => {
    const raw = vi.fn();
    const get = vi.fn(async (path: string) => (path === '/v1/organizations/failover' ? { fail_over: true } : page));
    const s = services({ get, raw });
    await load(s);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await playPause(s, '1');
    expect(recState.player).toMatchObject({ id: '1', state: 'failed' });
    expect(raw).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('a failed audio fetch gives the failed state', async () => {
    const get = vi.fn(async (path: string) => (path === '/v1/organizations/failover' ? { fail_over: false } : page));
    const raw = vi.fn(async () => {
      throw new Error('network');
    });
    const s = services({ get, raw });
    await load(s);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await playPause(s, '1');
    expect(recState.player.state).toBe('failed');
    errors.mockRestore();
  });

  it('a pause before playback has really started is a pause, not a failure', async () => {
    // A browser's audio element: play() announces 'play' at once and settles when sound starts; a
    // pause meanwhile rejects it with an AbortError.
    class FakeAudio extends EventTarget {
      paused = true;
      ended = false;
      currentTime = 0;
      duration = 9;
      src = '';
      private rejectPlay: ((err: unknown) => void) | null = null;
      play(): Promise<void> {
        this.paused = false;
        this.dispatchEvent(new Event('play'));
        return new Promise((_, reject) => (this.rejectPlay = reject));
      }
      pause(): void {
        this.paused = true;
        this.rejectPlay?.(new DOMException('The play() request was interrupted by a call to pause()', 'AbortError'));
        this.dispatchEvent(new Event('pause'));
      }
      load(): void {}
      removeAttribute(): void {}
    }
    vi.stubGlobal('Audio', FakeAudio);
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:recording');
    const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const get = vi.fn(async (path: string) => (path === '/v1/organizations/failover' ? { fail_over: false } : page));
    const raw = vi.fn(async () => ({ blob: async () => new Blob(['RIFF']) }));
    const s = services({ get, raw });
    await load(s);
    await playPause(s, '1');
    expect(recState.player.state).toBe('playing');
    await playPause(s, '1');
    await Promise.resolve();
    await Promise.resolve();
    expect(recState.player.state).toBe('paused');
    vi.unstubAllGlobals();
    created.mockRestore();
    revoked.mockRestore();
    warn.mockRestore();
  });

  it('refreshes every 60 s, but not while something plays', async () => {
    const get = vi.fn(async () => page);
    const s = services({ get });
    const stop = startRefreshing(s);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(get).toHaveBeenCalledTimes(1);
    recState.player.state = 'playing';
    await vi.advanceTimersByTimeAsync(60_000);
    expect(get).toHaveBeenCalledTimes(1);
    recState.player.state = 'paused';
    await vi.advanceTimersByTimeAsync(60_000);
    expect(get).toHaveBeenCalledTimes(2);
    stop();
  });
});
