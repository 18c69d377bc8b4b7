/**
 * The client log's engine (the Logging panel sits on it): level filter, the size rule, the cap that
 * drops the oldest lines, the file, and a browser without IndexedDB. Secrets: clientLogRedaction.test.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachLogSink, createLogger, type LogEntry } from '../../src/kernel/log';
import { idbBackend, memoryBackend, openIdb, type LogBackend } from '../../src/kernel/clientLogStore/backends';
import { toStoredLine } from '../../src/kernel/clientLogStore/line';
import { enteredMaxSizeMb, LEVEL_KEY, MAX_SIZE_KEY, storedMaxSizeMb, type SettingsStorage } from '../../src/kernel/clientLogStore/settings';
import { startClientLog } from '../../src/kernel/clientLogStore/start';
import { createClientLog, FLUSH_DELAY_MS, type ClientLog } from '../../src/kernel/clientLogStore/store';

const MB = 1024 * 1024;

function mapStorage(init: Record<string, string> = {}): SettingsStorage {
  const m = new Map(Object.entries(init));
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
}

const lines = async (log: ClientLog) => (await (await log.download()).text()).split('\n').filter(Boolean);

let detach: () => void = () => {};
function attach(log: ClientLog) {
  detach = attachLogSink(log);
  return log;
}

beforeEach(() => {
  // Lines other tests of this process logged before any sink was attached: not this test's.
  attachLogSink({ write: () => {} })();
  for (const m of ['debug', 'info', 'warn', 'error'] as const) vi.spyOn(console, m).mockImplementation(() => {});
});

afterEach(() => {
  detach();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('log size rule', () => {
  it('a stored size over 25, not positive or not digits reads as 5 MB', () => {
    expect([0, 26, 'abc', '5', 25, 1].map(storedMaxSizeMb)).toEqual([5, 5, 5, 5, 25, 1]);
    expect(['0', '26', '25', '1', '-3', '2.5', ' 7', '', null, undefined, 1.5].map(storedMaxSizeMb)).toEqual([5, 5, 25, 1, 5, 5, 5, 5, 5, 5, 5]);
  });

  it('a typed size is digits only, clamped to 1–25', () => {
    expect([0, 26, 'abc', '5', 25, 1].map(enteredMaxSizeMb)).toEqual([1, 25, null, 5, 25, 1]);
    expect(['', '-1', '2.5', '100'].map(enteredMaxSizeMb)).toEqual([null, null, null, 25]);
  });

  it('the store reads a stored value back through the rule, keeps a clamped one, refuses non-digits', async () => {
    const storage = mapStorage({ [MAX_SIZE_KEY]: '26', [LEVEL_KEY]: 'loud' });
    const log = createClientLog({ backend: memoryBackend(), storage });
    expect(await log.settings()).toEqual({ level: 'info', maxSizeMb: 5 });
    expect(await log.setMaxSizeMb(0)).toBe(1);
    expect(storage.getItem(MAX_SIZE_KEY)).toBe('1');
    expect(await log.setMaxSizeMb('40')).toBe(25);
    await expect(log.setMaxSizeMb('abc')).rejects.toBeInstanceOf(RangeError);
    expect(await log.settings()).toEqual({ level: 'info', maxSizeMb: 25 });
    storage.setItem(MAX_SIZE_KEY, '0');
    expect((await log.settings()).maxSizeMb).toBe(5);
    await log.setLevel('debug');
    expect(await createClientLog({ backend: memoryBackend(), storage }).settings()).toEqual({ level: 'debug', maxSizeMb: 5 });
    await expect(log.setLevel('verbose' as never)).rejects.toBeInstanceOf(RangeError);
  });
});

describe('level filter', () => {
  it('keeps Info and above by default; lines below the chosen level are not kept, on the console they still are', async () => {
    const log = attach(createClientLog({ backend: memoryBackend(), storage: mapStorage() }));
    const vm = createLogger('voicemail');
    vm.trace('t1');
    vm.debug('d1');
    vm.info('i1');
    vm.warn('w1');
    vm.error('e1');
    vm.fatal('f1');
    await log.setLevel('error');
    vm.warn('w2');
    vm.error('e2');
    await log.setLevel('trace');
    vm.trace('t2');
    expect((await lines(log)).map((l) => l.split(' ').slice(1).filter(Boolean).join(' '))).toEqual([
      'INFO voicemail i1',
      'WARNING voicemail w1',
      'ERROR voicemail e1',
      'FATAL voicemail f1',
      'ERROR voicemail e2',
      'TRACE voicemail t2',
    ]);
    expect(console.debug).toHaveBeenCalledWith('voicemail: t1');
    expect(console.warn).toHaveBeenCalledWith('voicemail: w2');
    expect(console.error).toHaveBeenCalledWith('voicemail: f1');
  });

  it('lines logged before the log chunk is in are kept with their own time, through the level filter', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-27T08:00:00.000Z'), toFake: ['Date'] });
    const early = createLogger('telephony');
    early.debug('not kept');
    early.info('registering');
    vi.setSystemTime(new Date('2026-11-27T08:00:05.000Z'));
    const log = attach(createClientLog({ backend: memoryBackend(), storage: mapStorage() }));
    early.warn('registered late');
    expect(await lines(log)).toEqual(['2026-11-27T08:00:00.000Z INFO    telephony registering', '2026-11-27T08:00:05.000Z WARNING telephony registered late']);
  });
});

describe('writes', () => {
  it('are batched: nothing reaches the store until a second has passed, then one append', async () => {
    vi.useFakeTimers();
    const backend = memoryBackend();
    const append = vi.spyOn(backend, 'append');
    attach(createClientLog({ backend, storage: mapStorage() }));
    const log = createLogger('contacts');
    log.info('one');
    log.info('two');
    await vi.advanceTimersByTimeAsync(FLUSH_DELAY_MS - 1);
    expect(append).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(append).toHaveBeenCalledTimes(1);
    expect(append.mock.calls[0]![0].map((l) => l.message)).toEqual(['one', 'two']);
  });

  it('never throw into the caller, whatever the store does', async () => {
    const broken: LogBackend = { ...memoryBackend(), append: () => Promise.reject(new Error('QuotaExceededError')) };
    const log = attach(createClientLog({ backend: broken, storage: mapStorage() }));
    const weird = { get boom(): never { throw new Error('getter'); } };
    expect(() => createLogger('history').error('odd details', weird, Symbol('s'), 10n)).not.toThrow();
    await log.flush();
    expect(console.warn).toHaveBeenCalledWith('client log: lines could not be kept', expect.any(Error));
    detach();
    attachLogSink({ write: () => { throw new Error('sink broken'); } });
    expect(() => createLogger('history').error('still fine')).not.toThrow();
  });
});

describe('size cap', () => {
  const entry = (i: number, pad = 0): LogEntry => ({ time: Date.UTC(2026, 10, 27, 0, 0, i), level: 'info', scope: 'test', message: `line ${i} ${'x'.repeat(pad)}`, details: [] });

  for (const [name, make] of [
    ['memory', async () => memoryBackend()],
    ['IndexedDB', async () => idbBackend((await openIdb(new IDBFactory()))!)],
  ] as const) {
    it(`${name}: past the cap the oldest lines go first, and a lower cap trims at once`, async () => {
      const backend = await make();
      const stored = Array.from({ length: 10 }, (_, i) => toStoredLine(entry(i)));
      const size = stored[0]!.size;
      await backend.append(stored.slice(0, 6), size * 8);
      await backend.append(stored.slice(6), size * 8);
      expect((await backend.all()).map((l) => l.message)).toEqual(['line 2 ', 'line 3 ', 'line 4 ', 'line 5 ', 'line 6 ', 'line 7 ', 'line 8 ', 'line 9 ']);
      await backend.trim(size * 3);
      expect((await backend.all()).map((l) => l.message)).toEqual(['line 7 ', 'line 8 ', 'line 9 ']);
      await backend.clear();
      expect(await backend.all()).toEqual([]);
    });
  }

  it('a 1 MB log written past 1 MB keeps the newest lines that fit, in IndexedDB', async () => {
    const log = attach(createClientLog({ backend: idbBackend((await openIdb(new IDBFactory()))!), storage: mapStorage() }));
    await log.setMaxSizeMb(1);
    const n = 400; // ~3.9 kB each: 1.5 MB in all
    for (let i = 0; i < n; i++) log.write(entry(i, 3800));
    const file = await log.download();
    expect(file.size).toBeLessThanOrEqual(MB);
    expect(file.size).toBeGreaterThan(MB - 8000);
    const kept = (await file.text()).split('\n').filter(Boolean);
    expect(kept.at(-1)).toContain(`line ${n - 1} `);
    const first = Number(/line (\d+)/.exec(kept[0]!)![1]);
    expect(first).toBeGreaterThan(100);
    expect(kept.map((l) => Number(/line (\d+)/.exec(l)![1]))).toEqual(Array.from({ length: n - first }, (_, i) => first + i));
  });
});

describe('download', () => {
  it('one line per entry: ISO time, level, plugin, message, details; named by the day', async () => {
    const log = attach(createClientLog({ backend: memoryBackend(), storage: mapStorage(), now: () => new Date(2026, 10, 27, 23, 30) }));
    createLogger('messaging').warn('reconnecting\nafter a drop', { attempt: 2, delayMs: 4000 }, 'ws closed');
    createLogger('kernel').info('ready');
    const file = await log.download();
    expect(file.name).toBe('uc-client-log-2026-11-27.txt');
    expect(file.type).toMatch(/^text\/plain/);
    const text = await file.text();
    expect(text.endsWith('\n')).toBe(true);
    const [warn, info, ...rest] = text.split('\n');
    expect(rest).toEqual(['']);
    expect(warn).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARNING messaging reconnecting\\nafter a drop \{"attempt":2,"delayMs":4000\} "ws closed"$/);
    expect(info).toMatch(/^\S+Z INFO    kernel ready$/);
  });

  it('clear empties the log, lines still waiting included', async () => {
    const log = attach(createClientLog({ backend: memoryBackend(), storage: mapStorage() }));
    createLogger('history').info('kept');
    await log.flush();
    createLogger('history').info('waiting');
    await log.clear();
    expect(await lines(log)).toEqual([]);
  });
});

describe('IndexedDB', () => {
  it('keeps the log across pages of the same browser', async () => {
    const factory = new IDBFactory();
    const first = attach(await startClientLog(factory));
    expect(await first.persistent()).toBe(true);
    createLogger('voicemail').error('upload failed', { status: 500 });
    await first.flush();
    detach();
    const second = attach(await startClientLog(factory));
    expect((await lines(second)).map((l) => l.slice(25))).toEqual(['ERROR   voicemail upload failed {"status":500}']);
  });

  it('unavailable (private mode, storage off, tests): lines go to the console and to memory for this page', async () => {
    const refused = { open: () => { throw new DOMException('The operation is insecure.', 'SecurityError'); } } as unknown as IDBFactory;
    const failing = {
      open: () => {
        const req = {} as IDBOpenDBRequest & { onerror: (() => void) | null };
        setTimeout(() => req.onerror?.(), 0);
        return req;
      },
    } as unknown as IDBFactory;
    for (const factory of [undefined, refused, failing]) {
      const log = attach(await startClientLog(factory));
      expect(await log.persistent()).toBe(false);
      createLogger('telephony').error('no microphone');
      expect(console.error).toHaveBeenCalledWith('telephony: no microphone');
      expect((await lines(log)).map((l) => l.slice(25))).toEqual(['ERROR   telephony no microphone']);
      detach();
    }
  });
});
