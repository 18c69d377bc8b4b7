import i18next from 'i18next';
import { History } from 'lucide-react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, Api, definePlugin, Kernel, Navigation, Notifications, Session, toDisposable, type Navigator, type SessionInfo } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import en from './locales/en.json';
import { exportHistoryCsv } from './download';
import { historyPlugin } from './index';
import { onHistoryInvalidated } from './load';
import { toHistoryRecord } from './model';
import { historyState, resetHistoryState } from './state';
import { fakeHistoryApi, wire } from './test-fixtures';

const flush = () => new Promise((r) => setTimeout(r, 0));

function boot(opts: { telephony?: boolean } = {}) {
  const kernel = new Kernel({ features: allFeatures(true) });
  const navigate = vi.fn<Navigator['navigate']>();
  const call = vi.fn(async () => undefined);
  const toast = vi.fn(() => 'id');
  const announce = vi.fn();
  const api = fakeHistoryApi(Array.from({ length: 3 }, (_, i) => wire({ id: i + 1 })));
  kernel.provide(Navigation, { navigate });
  kernel.provide(Session, { userId: 7 } as unknown as SessionInfo);
  kernel.provide(Api, api as never);
  kernel.provide(Notifications, { toast, dismiss: vi.fn(), announce });
  const plugins = [historyPlugin];
  const callEnded = new Set<() => void>();
  const onCallEnded = (l: () => void) => (callEnded.add(l), toDisposable(() => callEnded.delete(l)));
  if (opts.telephony) plugins.unshift(definePlugin({ id: 'telephony', titleKey: 't', provides: [{ key: TelephonyApi, create: () => ({ call, onCallEnded }) }] }));
  kernel.load(plugins);
  const endCall = () => callEnded.forEach((l) => l());
  return { kernel, navigate, call, toast, announce, api, endCall, callEnded };
}

beforeAll(async () => {
  await i18next.init({ lng: 'en', resources: { en: { history: en } }, interpolation: { escapeValue: false } });
});

beforeEach(() => resetHistoryState());
afterEach(() => vi.restoreAllMocks());

describe('history manifest', () => {
  it('refreshes the list as soon as a call ends, and stops listening with the plugin', async () => {
    const invalidate = vi.fn();
    const off = onHistoryInvalidated(invalidate);
    vi.useFakeTimers();
    try {
      const { kernel, endCall, callEnded } = boot({ telephony: true });
      endCall();
      expect(invalidate).toHaveBeenCalledTimes(1);
      // Once more a moment later: the record of the side that hung up may be filed just after.
      vi.advanceTimersByTime(2000);
      expect(invalidate).toHaveBeenCalledTimes(2);
      kernel.dispose();
      expect(callEnded.size).toBe(0);
    } finally {
      off();
      vi.useRealTimers();
    }
  });

  it('refreshes the lists and the badge, before any of its screens or badges has rendered', async () => {
    const invalidate = vi.fn();
    const off = onHistoryInvalidated(invalidate);
    const { kernel } = boot();
    kernel.context.route = '/history';
    expect(await kernel.run('history.refresh', {}, 'hotkey')).toBe(true);
    expect(invalidate).toHaveBeenCalledTimes(1);
    off();
  });

  it('loads with its route, nav entry, commands and hotkeys', () => {
    const { kernel } = boot();
    expect(kernel.routes.get('history')?.item.path).toBe('/history');
    expect(kernel.nav.get('history')?.item).toMatchObject({ order: 10, icon: History, to: '/history', badgeLabelKey: 'history:badge' });
    expect(kernel.commands.list().map((c) => c.item.id).sort()).toEqual([
      'history.callBack',
      'history.downloadCsv',
      'history.go',
      'history.refresh',
      'history.showMissed',
      'history.showRecents',
    ]);
    expect(kernel.hotkeys.list().map((h) => h.item.keys).sort()).toEqual(['Shift+D', 'c', 'g h', 'g m']);
  });

  it('has an English title for every command and reason', () => {
    const { kernel } = boot();
    for (const { item } of kernel.commands.list()) expect(i18next.exists(item.titleKey), item.titleKey).toBe(true);
    for (const key of ['history:reasons.noTelephony', 'history:reasons.noSelection', 'history:reasons.exporting', 'history:badge_one', 'history:title'])
      expect(i18next.exists(key), key).toBe(true);
  });

  it('validates search params for the route', () => {
    const { kernel } = boot();
    const validate = kernel.routes.get('history')!.item.validateSearch!;
    expect(validate({ filter: 'missed', id: '4', in: 'false' })).toEqual({ filter: 'missed', id: 4, in: false });
    expect(validate({ filter: 'recents', term: '' })).toEqual({});
  });

  it('tears everything down with the plugin', async () => {
    const { kernel } = boot();
    await flush();
    kernel.dispose();
    expect(kernel.sizes()).toMatchObject({ commands: 0, hotkeys: 0, routes: 0, nav: 0, contextKeys: 0 });
  });
});

describe('navigation commands', () => {
  it('go, missed and recents navigate to the screen', async () => {
    const { kernel, navigate } = boot();
    await kernel.run('history.go');
    expect(navigate).toHaveBeenLastCalledWith('/history');
    await kernel.run('history.showMissed');
    expect(navigate).toHaveBeenLastCalledWith('/history', { search: { filter: 'missed' } });
    await kernel.run('history.showRecents');
    expect(navigate).toHaveBeenLastCalledWith('/history', { search: {} });
  });

  it('keep the term and dates set on the screen, and drop the selection', async () => {
    const { kernel, navigate } = boot();
    kernel.context.route = '/history';
    historyState.search = { filter: 'recents', id: 3, term: 'ada', from: '2024-03-01' };
    await kernel.run('history.showMissed');
    expect(navigate).toHaveBeenLastCalledWith('/history', { search: { filter: 'missed', term: 'ada', from: '2024-03-01' } });
  });
});

describe('history.callBack', () => {
  it('is disabled without telephony, with the reason', () => {
    const { kernel } = boot();
    kernel.context.route = '/history';
    historyState.selected = toHistoryRecord(wire());
    const cmd = kernel.commands.get('history.callBack')!.item;
    expect(kernel.enablement(cmd)).toEqual({ reasonKey: 'history:reasons.noTelephony' });
  });

  it('is disabled without a selected call, and reads the selection live', async () => {
    const { kernel, call } = boot({ telephony: true });
    kernel.context.route = '/history';
    const cmd = kernel.commands.get('history.callBack')!.item;
    expect(kernel.enablement(cmd)).toEqual({ reasonKey: 'history:reasons.noSelection' });
    historyState.selected = toHistoryRecord(wire({ direction: 'outbound', dest_phone: '+15551230000', cnam: 'Bob' }));
    expect(kernel.enablement(cmd)).toBe(true);
    expect(await kernel.run('history.callBack', {}, 'hotkey')).toBe(true);
    expect(call).toHaveBeenCalledWith('+15551230000', { displayName: 'Bob' });
  });

  it('tells bound buttons, menus and the palette when the selection changes (its enablement reads it)', async () => {
    const { kernel } = boot();
    const changed = vi.fn();
    kernel.subscribeCommandState(changed);
    historyState.selected = toHistoryRecord(wire({ id: 42 }));
    await flush();
    expect(changed).toHaveBeenCalled();
    expect(Object.keys(kernel.context.keys).filter((k) => k.startsWith('history.'))).toEqual([]);
  });

  it('is only offered on the history screen', () => {
    const { kernel } = boot({ telephony: true });
    kernel.context.route = '/contacts';
    expect(kernel.isVisible(kernel.commands.get('history.callBack')!.item)).toBe(false);
  });
});

describe('CSV export', () => {
  it('downloads the current filter, shows progress, and announces the result', async () => {
    const { kernel, api, announce } = boot();
    historyState.filter = { view: 'missed', term: '', from: '2024-03-01', to: '2024-03-05', types: { incoming: true, outgoing: true, missed: true } };
    const save = vi.fn();
    const seen: unknown[] = [];
    const run = exportHistoryCsv(kernel, { save, now: () => new Date(2024, 2, 5) });
    seen.push(historyState.exporting);
    expect(kernel.enablement(kernel.commands.get('history.downloadCsv')!.item)).toEqual({ reasonKey: 'history:reasons.exporting' });
    await run;
    expect(seen[0]).toEqual({ loaded: 0, total: null });
    expect(historyState.exporting).toBeNull();
    expect(api.calls[0]?.query).toMatchObject({ call_type: 'missed', start_date: '2024-03-01', end_date: '2024-03-05', limit: 500 });
    expect(save).toHaveBeenCalledTimes(1);
    const [name, content] = save.mock.calls[0] as [string, string];
    expect(name).toBe('call-history-2024-03-05.csv');
    expect(content.split('\r\n')).toHaveLength(4);
    expect(announce).toHaveBeenCalledWith('Call history downloaded: 3 calls.');
  });

  it('tells the user when the download fails', async () => {
    const { kernel, toast } = boot();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = { get: () => Promise.reject(new Error('boom')) };
    const lookup = { get: <T,>(k: { id: string }) => (k.id === Api.id ? failing : kernel.get(k as never)) as T, maybe: kernel.maybe.bind(kernel), has: kernel.has.bind(kernel) };
    await exportHistoryCsv(lookup, { save: vi.fn() });
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ titleKey: 'history:export.failedTitle', tone: 'error' }));
    expect(historyState.exporting).toBeNull();
  });
});
