// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Navigation, Notifications, Preferences, type ServiceLookup } from '../../kernel';
import { chatAlerts, CHAT_SOUND_OFF, CHIME_GAP_MS, createChime } from './alerts';

class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static shown: FakeNotification[] = [];
  onclick: (() => void) | null = null;
  closed = false;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    FakeNotification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
}

class FakeAudioContext {
  static made = 0;
  currentTime = 10;
  state = 'running';
  destination = {};
  oscillators: Array<{ frequency: { value: number }; start: number; stop: number }> = [];
  ramps: Array<[number, number]> = [];
  constructor() {
    FakeAudioContext.made++;
    FakeAudioContext.last = this;
  }
  static last: FakeAudioContext;
  createGain() {
    return {
      gain: { setValueAtTime: (v: number, at: number) => this.ramps.push([v, at]), exponentialRampToValueAtTime: (v: number, at: number) => this.ramps.push([v, at]) },
      connect() {},
      disconnect() {},
    };
  }
  createOscillator() {
    const o = { frequency: { value: 0 }, start: -1, stop: -1, onended: null, connect() {} };
    const rec = { frequency: o.frequency, start: -1, stop: -1 };
    this.oscillators.push(rec);
    return { ...o, frequency: o.frequency, start: (at: number) => (rec.start = at), stop: (at: number) => (rec.stop = at) };
  }
  resume = async () => undefined;
}

function services(saved: unknown = false) {
  const navigate = vi.fn();
  const toast = vi.fn(() => '');
  const set = vi.fn(async () => undefined);
  const get = vi.fn(async () => saved);
  const byKey = new Map<unknown, unknown>([
    [Navigation, { navigate }],
    [Notifications, { toast, dismiss: vi.fn(), announce: vi.fn() }],
    [Preferences, { get, set }],
  ]);
  const lookup = { get: (k: unknown) => byKey.get(k), maybe: (k: unknown) => byKey.get(k), has: (k: unknown) => byKey.has(k) } as unknown as ServiceLookup;
  return { lookup, navigate, toast, set, get };
}

const alert = { kind: 'chat' as const, tag: 'chat:bob@uc.test', title: 'Bob', body: 'Lunch?', to: '/chat/bob%40uc.test' };

beforeEach(() => {
  FakeNotification.permission = 'granted';
  FakeNotification.shown = [];
  vi.stubGlobal('Notification', FakeNotification);
  vi.stubGlobal('AudioContext', FakeAudioContext);
});
afterEach(() => vi.unstubAllGlobals());

describe('new message alerts', () => {
  it('shows a desktop notification once allowed; clicking it focuses the tab and opens that conversation', () => {
    const s = services();
    const focus = vi.spyOn(window, 'focus').mockImplementation(() => undefined);
    chatAlerts(s.lookup, vi.fn()).newMessage(alert);
    expect(FakeNotification.shown).toHaveLength(1);
    const n = FakeNotification.shown[0]!;
    expect([n.title, n.options.body, n.options.tag, n.options.requireInteraction]).toEqual(['Bob', 'Lunch?', 'chat:bob@uc.test', false]);
    n.onclick!();
    expect(focus).toHaveBeenCalled();
    expect(s.navigate).toHaveBeenCalledWith('/chat/bob%40uc.test');
    expect(n.closed).toBe(true);
  });

  it('shows nothing until the user turned notifications on (or where the browser has none), but still chimes', () => {
    FakeNotification.permission = 'default';
    const chime = vi.fn();
    chatAlerts(services().lookup, chime).newMessage(alert);
    vi.stubGlobal('Notification', undefined);
    chatAlerts(services().lookup, chime).newMessage({ ...alert, tag: 'text:c.1', to: '/message/c.1' });
    expect(FakeNotification.shown).toHaveLength(0);
    expect(chime).toHaveBeenCalledTimes(2);
  });

  it('a burst of messages chimes once; the next one after the gap chimes again', () => {
    let now = 1000;
    const chime = vi.fn();
    const a = chatAlerts(services().lookup, chime, () => now);
    a.newMessage(alert);
    now += 200;
    a.newMessage({ ...alert, body: 'Still there?' });
    expect(chime).toHaveBeenCalledTimes(1);
    expect(FakeNotification.shown).toHaveLength(2);
    now += CHIME_GAP_MS;
    a.newMessage(alert);
    expect(chime).toHaveBeenCalledTimes(2);
  });

  it('the chat sound preference: saved off stays silent; the command flips it, saves it and says so', async () => {
    const s = services(true);
    const chime = vi.fn();
    const a = chatAlerts(s.lookup, chime);
    await a.toggleSound().then(() => a.toggleSound()); // off → on → off, each saved
    expect(s.get).toHaveBeenCalledWith(CHAT_SOUND_OFF);
    expect(s.set.mock.calls).toEqual([
      [CHAT_SOUND_OFF, false],
      [CHAT_SOUND_OFF, true],
    ]);
    expect(s.toast.mock.calls.map((c) => (c as unknown as [{ titleKey: string }])[0].titleKey)).toEqual(['messaging:sound.on', 'messaging:sound.off']);
    a.newMessage(alert);
    expect(chime).not.toHaveBeenCalled();
    expect(a.soundOn()).toBe(false);
    // Notifications do not depend on the sound.
    expect(FakeNotification.shown).toHaveLength(1);
  });

  it('one set of alerts per signed-in app: chat and texts share the sound preference', () => {
    const s = services();
    expect(chatAlerts(s.lookup)).toBe(chatAlerts(s.lookup));
  });
});

describe('chat sound', () => {
  it('is a short rising two-note chime at gain 0.2, fading out within 0.3 s, on one audio context', () => {
    const before = FakeAudioContext.made;
    const chime = createChime();
    chime();
    const ctx = FakeAudioContext.last;
    expect(ctx.oscillators.map((o) => [o.frequency.value, o.start - 10])).toEqual([
      [880, 0],
      [1318.5, expect.closeTo(0.09, 5)],
    ]);
    expect(Math.max(...ctx.oscillators.map((o) => o.stop)) - 10).toBeLessThanOrEqual(0.3);
    expect(ctx.ramps).toEqual([
      [0.2, 10],
      [0.001, 10.3],
    ]);
    chime();
    expect(FakeAudioContext.made - before).toBe(1);
  });

  it('is silent (and harmless) where the browser has no WebAudio', () => {
    vi.stubGlobal('AudioContext', undefined);
    expect(() => createChime()()).not.toThrow();
  });
});

describe('per-kind desktop notifications and live preferences', () => {
  function withPrefs(saved: Partial<Record<string, unknown>>) {
    const listeners = new Map<string, (v: unknown) => void>();
    const prefs = {
      get: vi.fn(async (k: string) => saved[k] ?? false),
      set: vi.fn(async (k: string, v: unknown) => listeners.get(k)?.(v)),
      onChange: (k: string, l: (v: unknown) => void) => (listeners.set(k, l), { dispose: () => listeners.delete(k) }),
    };
    const byKey = new Map<unknown, unknown>([
      [Navigation, { navigate: vi.fn() }],
      [Notifications, { toast: vi.fn(), dismiss: vi.fn(), announce: vi.fn() }],
      [Preferences, prefs],
    ]);
    return { lookup: { get: (k: unknown) => byKey.get(k), maybe: (k: unknown) => byKey.get(k), has: (k: unknown) => byKey.has(k) } as unknown as ServiceLookup, prefs };
  }

  it('texts switched off: a new text shows no notification (it still chimes); chat still notifies', async () => {
    const { lookup, prefs } = withPrefs({ 'uc-desktop-notifications-off': ['texts'] });
    const chime = vi.fn();
    let now = 0;
    const a = chatAlerts(lookup, chime, () => (now += CHIME_GAP_MS));
    await vi.waitFor(() => expect(prefs.get).toHaveBeenCalledWith('uc-desktop-notifications-off'));
    await Promise.resolve();
    a.newMessage({ ...alert, kind: 'texts', tag: 'text:c.1', to: '/message/c.1' });
    a.newMessage(alert);
    expect(FakeNotification.shown.map((n) => n.options.tag)).toEqual(['chat:bob@uc.test']);
    expect(chime).toHaveBeenCalledTimes(2);
  });

  it('the sound saved off in the preferences panel silences the next message without a reload', async () => {
    const { lookup, prefs } = withPrefs({});
    const chime = vi.fn();
    let now = 0;
    const a = chatAlerts(lookup, chime, () => (now += CHIME_GAP_MS));
    await vi.waitFor(() => expect(prefs.get).toHaveBeenCalledWith(CHAT_SOUND_OFF));
    a.newMessage(alert);
    await prefs.set(CHAT_SOUND_OFF, true);
    a.newMessage(alert);
    expect(chime).toHaveBeenCalledTimes(1);
    expect(a.soundOn()).toBe(false);
  });
});
