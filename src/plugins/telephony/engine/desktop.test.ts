// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Preferences, type ServiceLookup } from '../../../kernel';
import { desktopNotices, type DesktopNotice } from '../../../kernel/lazy';
import { desktopNotifier } from './desktop';

afterEach(() => vi.restoreAllMocks());

function notifierWithCallsOff(off: string[]) {
  const prefs = { get: vi.fn(async () => off), set: vi.fn() };
  const services = { get: () => prefs, maybe: (k: unknown) => (k === Preferences ? prefs : undefined), has: () => true } as unknown as ServiceLookup;
  const shown: DesktopNotice[] = [];
  const notices = desktopNotices(services, (n) => (shown.push(n), null));
  return { notifier: desktopNotifier({ t: (k) => k, navigate: vi.fn(), notices }), shown, prefs };
}

describe('call notifications', () => {
  it('a missed or ringing call notifies while the tab is hidden, unless calls are switched off', async () => {
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const on = notifierWithCallsOff(['texts']);
    const off = notifierWithCallsOff(['calls']);
    await vi.waitFor(() => expect(off.prefs.get).toHaveBeenCalled());
    await Promise.resolve();
    for (const { notifier } of [on, off]) {
      notifier.incoming('c1', 'Bob');
      notifier.missed('c2', 'Bob');
    }
    expect(on.shown.map((n) => n.tag)).toEqual(['call-c1', 'missed-c2']);
    expect(off.shown).toEqual([]);
  });
});
