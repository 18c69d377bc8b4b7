import { describe, expect, it, vi } from 'vitest';
import { Preferences, toDisposable, type ServiceLookup } from '../../src/kernel';
import { desktopNotices, noticeKindsOff, NOTICES_OFF_PREFERENCE, type DesktopNotice } from '../../src/kernel/lazy';
import { createPreferences } from '../../src/shell/preferences';
import type { ApiClient } from '../../src/kernel';

function lookupWith(prefs: unknown): ServiceLookup {
  return { get: () => prefs, maybe: (k: unknown) => (k === Preferences ? prefs : undefined), has: (k: unknown) => k === Preferences } as unknown as ServiceLookup;
}

const notice = (tag: string): DesktopNotice => ({ tag, title: 't', body: 'b', open: () => undefined });

describe('per-kind desktop notifications', () => {
  it('reads the saved kinds off; never saved (false) or unreadable switches nothing off', () => {
    expect(noticeKindsOff(['texts', 'calls'])).toEqual(['texts', 'calls']);
    expect(noticeKindsOff(false)).toEqual([]);
    expect(noticeKindsOff({ texts: true })).toEqual([]);
    expect(noticeKindsOff(['texts', 'fax'])).toEqual(['texts']);
  });

  it('a kind switched off does not notify; the others do', async () => {
    const prefs = { get: vi.fn(async () => ['texts']), set: vi.fn() };
    const show = vi.fn(() => null);
    const n = desktopNotices(lookupWith(prefs), show);
    await vi.waitFor(() => expect(n.on('texts')).toBe(false));
    n.show('texts', notice('text:1'));
    n.show('chat', notice('chat:1'));
    n.show('calls', notice('call-1'));
    expect(show.mock.calls.map((c) => (c as unknown as [DesktopNotice])[0].tag)).toEqual(['chat:1', 'call-1']);
    expect(prefs.get).toHaveBeenCalledWith(NOTICES_OFF_PREFERENCE);
  });

  it('follows a saved change at once, without reading the preference again', async () => {
    const listeners: Array<(v: unknown) => void> = [];
    const prefs = {
      get: vi.fn(async () => false),
      set: vi.fn(),
      onChange: (_k: string, l: (v: unknown) => void) => (listeners.push(l), toDisposable(() => undefined)),
    };
    const show = vi.fn(() => null);
    const n = desktopNotices(lookupWith(prefs), show);
    await Promise.resolve();
    n.show('chat', notice('chat:1'));
    listeners.forEach((l) => l(['chat']));
    n.show('chat', notice('chat:2'));
    expect(show).toHaveBeenCalledTimes(1);
    expect(n.on('chat')).toBe(false);
    expect(prefs.get).toHaveBeenCalledTimes(1);
  });
});

describe('preferences store', () => {
  it('tells the listeners of a key its new value after a successful save, and no longer once disposed', async () => {
    const client = { put: vi.fn(async () => ({})), get: vi.fn() } as unknown as ApiClient;
    const prefs = createPreferences(client);
    const seen: unknown[] = [];
    const sub = prefs.onChange!('uc-messages-cut-off', (v) => seen.push(v));
    prefs.onChange!('uc-theme', () => seen.push('wrong key'));
    await prefs.set('uc-messages-cut-off', { sms: 30 });
    sub.dispose();
    await prefs.set('uc-messages-cut-off', { sms: 60 });
    expect(seen).toEqual([{ sms: 30 }]);
  });

  it('a failed save tells no one', async () => {
    const client = { put: vi.fn(async () => Promise.reject(new Error('offline'))), get: vi.fn() } as unknown as ApiClient;
    const prefs = createPreferences(client);
    const seen: unknown[] = [];
    prefs.onChange!('uc-chat-sound-off', (v) => seen.push(v));
    await expect(prefs.set('uc-chat-sound-off', true)).rejects.toThrow('offline');
    expect(seen).toEqual([]);
  });
});
