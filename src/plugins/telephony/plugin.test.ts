import i18next from 'i18next';
import { Phone } from 'lucide-react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, Api, Connections, Dialogs, Kernel, Navigation, Notifications, Preferences, Session, type PluginManifest, type SessionInfo } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { PaletteIndex } from '../../palette/model';
import { palettePlugin } from '../../palette/plugin';
import { createShellPlugin } from '../../shell/shellPlugin';
import { plugins } from '../index';
import { dialable } from './commands';
import { telephonyPlugin } from './index';
import en from './locales/en.json';
import { parseDialString } from './model/dialString';
import type { RunDeps } from './runs';
import { initialTelephonyState, phone, resetPhone, type CallRecord } from './state';

// The engine chunk, replaced by a spy: these tests are about the manifest and its commands.
const engine = vi.hoisted(() => ({
  call: vi.fn(async () => undefined),
  callChoice: vi.fn(async () => undefined),
  accept: vi.fn(),
  decline: vi.fn(),
  hangup: vi.fn(),
  toggleHold: vi.fn(),
  toggleMute: vi.fn(),
  sendDtmf: vi.fn(),
  takeOver: vi.fn(),
  itemAction: vi.fn(),
  testConnection: vi.fn(async () => ({ ok: true, result: { rttMs: 168, rttSource: 'echo', jitterMs: 2, lossPct: 0, micLevel: 0.3, verdict: 'good' } })),
}));
const startEngine = vi.hoisted(() => vi.fn(async () => engine));
vi.mock('./lazy', async () => {
  const { makeRuns } = await vi.importActual<typeof import('./runs')>('./runs');
  const deps = {
    startEngine,
    currentSettings: () => null,
    callTarget: (await vi.importActual<typeof import('./engine/callTarget')>('./engine/callTarget')).callTarget,
    destinationFrom: (await vi.importActual<typeof import('./settings/callSettings')>('./settings/callSettings')).destinationFrom,
  };
  return { startEngine, stopEngine: vi.fn(), uiStrings: async () => undefined, currentSettings: () => null, runs: makeRuns(deps as unknown as RunDeps) };
});

function boot(opts: { configured?: boolean; all?: boolean } = {}) {
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  const toast = vi.fn(() => 'id');
  const dismiss = vi.fn();
  kernel.provide(Navigation, { navigate: vi.fn() });
  kernel.provide(Session, { userId: 7, config: { sip: { configured: opts.configured ?? false }, messaging: { enabled: false }, branding: { product_name: 'Acme UC', logo_url: null, accent_color: '#2563eb' } }, profile: { first_name: 'Alice', last_name: 'Nguyen' } } as unknown as SessionInfo);
  kernel.provide(Notifications, { toast, dismiss, announce: vi.fn() });
  kernel.provide(Api, { get: vi.fn(async () => ({})), raw: vi.fn(async () => new Response('')) } as never);
  kernel.provide(Preferences, { get: async <T,>() => false as T | false, set: vi.fn(async () => undefined) });
  kernel.provide(Connections, { register: () => ({ report: vi.fn(), dispose: vi.fn() }) });
  kernel.provide(Dialogs, { confirm: vi.fn(async () => ({ confirmed: false, remember: false })) });
  const list: PluginManifest[] = opts.all ? [createShellPlugin({ setLanguage: async () => undefined }), palettePlugin, ...plugins] : [telephonyPlugin];
  // The whole product must also name its home screen.
  kernel.load(list, { complete: opts.all });
  return { kernel, toast, dismiss };
}

/** The manifest with its later part in (enablement of the call commands), as after the first screen. */
async function booted(opts: { configured?: boolean; all?: boolean } = {}) {
  const b = boot(opts);
  await b.kernel.loadLaterParts();
  return b;
}

const call = (over: Partial<CallRecord>): CallRecord => ({
  id: 'c1', state: 'active', number: '1002', displayName: 'Bob Martinez', direction: 'outgoing', startedAt: 0, held: false, muted: false, mergedWith: null, ended: null, seq: 1, recording: 'none', sipCallId: null, transfer: null, consultFor: null, ...over,
});

beforeAll(async () => {
  await i18next.init({ lng: 'en', resources: { en: { telephony: en } }, interpolation: { escapeValue: false } });
});
beforeEach(() => {
  vi.useFakeTimers();
  resetPhone();
  vi.clearAllMocks();
});
afterEach(() => vi.useRealTimers());

describe('telephony manifest', () => {
  it('boots with every product plugin: no duplicate ids, no colliding hotkeys, one home screen', async () => {
    const { kernel } = await booted({ all: true });
    expect(kernel.homePath()).toBe('/history');
    const keys = Object.fromEntries(kernel.hotkeys.list().filter((h) => h.plugin === 'telephony').map((h) => [h.item.command, h.item.keys]));
    expect(keys).toEqual({
      'telephony.answer': '$mod+Shift+a',
      'telephony.decline': '$mod+Shift+d',
      'telephony.hangup': '$mod+Shift+e',
      'telephony.hold': '$mod+Shift+h',
      'telephony.mute': '$mod+Shift+m',
      'telephony.transferScreen': '$mod+Shift+x',
      'telephony.dialpad': '$mod+Shift+k',
    });
    kernel.dispose();
  });

  it('declares the calls routes, the nav entry, the callDock panel and TelephonyApi', async () => {
    const { kernel } = await booted();
    expect(kernel.routes.list().map((r) => r.item.path)).toEqual(['/calls', '/calls/transfer', '/calls/dial', '/calls/$id']);
    expect(kernel.nav.get('calls')?.item).toMatchObject({ to: '/calls', icon: Phone, command: 'telephony.go' });
    expect(kernel.panels.get('telephony.dock')?.item.slot).toBe('callDock');
    expect(kernel.has(TelephonyApi)).toBe(true);
    expect(
      kernel.commands
        .list()
        .filter((c) => !c.item.hiddenInPalette)
        .map((c) => c.item.id),
    ).toEqual(['telephony.go', 'telephony.call', 'telephony.answer', 'telephony.decline', 'telephony.hangup', 'telephony.hold', 'telephony.mute', 'telephony.dtmf', 'telephony.dialpad', 'telephony.takeOver', 'telephony.transferScreen', 'telephony.transfer', 'telephony.transferToVoicemail', 'telephony.transferAttended', 'telephony.moveToCell', 'telephony.moveToDesk', 'telephony.completeTransfer', 'telephony.cancelTransfer', 'telephony.merge', 'telephony.record', 'telephony.testConnection', 'telephony.dndOn', 'telephony.dndOff', 'telephony.forwardOn', 'telephony.forwardOff', 'telephony.notifications', 'telephony.phoneLinks']);
  });

  it('"#12" alone in the palette is Call ▸ #12 (speed dial), first and alone', async () => {
    const { kernel } = await booted();
    const rows = new PaletteIndex(kernel, kernel.snapshot(), i18next.t.bind(i18next)).root('#12', []);
    expect(rows).toMatchObject([{ kind: 'action', title: 'Call ▸ #12', command: { id: 'telephony.call' }, args: { target: '#12' } }]);
  });

  it('call-control hotkeys also work while typing in a text field; the others do not', async () => {
    const { kernel } = await booted();
    const inInputs = kernel.hotkeys
      .list()
      .filter((h) => h.item.allowInInputs)
      .map((h) => h.item.command);
    expect(inInputs).toEqual(['telephony.answer', 'telephony.decline', 'telephony.hangup', 'telephony.hold', 'telephony.mute']);
  });

  it('has an English title for every command and argument, and every reason', async () => {
    const { kernel } = await booted();
    for (const { item } of kernel.commands.list()) {
      expect(i18next.exists(item.titleKey), item.titleKey).toBe(true);
      for (const a of item.args ?? []) expect(i18next.exists(a.titleKey), a.titleKey).toBe(true);
    }
    for (const key of Object.keys(en.reasons)) expect(i18next.exists(`telephony:reasons.${key}`)).toBe(true);
    for (const key of ['telephony:title', 'telephony:nav', 'telephony:detailTitle', 'telephony:connection', 'telephony:args.needNumber', 'telephony:args.badDigits'])
      expect(i18next.exists(key), key).toBe(true);
  });

  it('signing out leaves the phone as a new one starts', () => {
    Object.assign(phone, { status: 'ready', calls: { c1: call({}) }, dialpadOpen: true, lastDialled: '1002', deskPhone: true });
    phone.settings.dnd = true;
    phone.recordingPolicy.mode = 'on';
    phone.devices.input = 'mic-2';
    resetPhone();
    expect(phone).toEqual(initialTelephonyState());
  });

  it('tears everything down with the plugin', async () => {
    const { kernel } = await booted();
    phone.status = 'ready';
    kernel.dispose();
    expect(kernel.sizes()).toMatchObject({ commands: 0, hotkeys: 0, routes: 0, nav: 0, panels: 0, contextKeys: 0 });
    expect(phone.status).toBe('off');
  });

  it('starts the engine after the first screen, only when calling is configured', async () => {
    await booted({ configured: false });
    await vi.advanceTimersByTimeAsync(2000);
    expect(startEngine).not.toHaveBeenCalled();
    expect(phone.status).toBe('unconfigured');
    const { kernel } = await booted({ configured: true });
    expect(startEngine).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(300);
    await vi.waitFor(() => expect(startEngine).toHaveBeenCalledWith(kernel));
  });
});

describe('command enablement says why', () => {
  const enablement = (kernel: Kernel, id: string) => kernel.enablement(kernel.commands.get(id)!.item);

  it('without calling configured', async () => {
    const { kernel } = await booted();
    for (const id of ['telephony.call', 'telephony.answer', 'telephony.hangup', 'telephony.dialpad', 'telephony.takeOver'])
      expect(enablement(kernel, id), id).toEqual({ reasonKey: 'telephony:reasons.notConfigured' });
  });

  it('while another window holds the phone', async () => {
    const { kernel } = await booted();
    phone.status = 'elsewhere';
    for (const id of ['telephony.call', 'telephony.answer', 'telephony.dialpad']) expect(enablement(kernel, id), id).toEqual({ reasonKey: 'telephony:reasons.elsewhere' });
    expect(enablement(kernel, 'telephony.takeOver')).toBe(true);
  });

  it('while connecting, and when the connection is lost', async () => {
    const { kernel } = await booted();
    phone.status = 'connecting';
    expect(enablement(kernel, 'telephony.call')).toEqual({ reasonKey: 'telephony:reasons.connecting' });
    expect(enablement(kernel, 'telephony.dialpad')).toBe(true);
    phone.status = 'error';
    expect(enablement(kernel, 'telephony.call')).toEqual({ reasonKey: 'telephony:reasons.notConnected' });
  });

  it('with no call, a ringing call, a connected call', async () => {
    const { kernel } = await booted();
    phone.status = 'ready';
    expect(enablement(kernel, 'telephony.call')).toBe(true);
    expect(enablement(kernel, 'telephony.answer')).toEqual({ reasonKey: 'telephony:reasons.noIncoming' });
    expect(enablement(kernel, 'telephony.hangup')).toEqual({ reasonKey: 'telephony:reasons.noCall' });
    expect(enablement(kernel, 'telephony.dtmf')).toEqual({ reasonKey: 'telephony:reasons.noActive' });
    expect(enablement(kernel, 'telephony.takeOver')).toEqual({ reasonKey: 'telephony:reasons.notElsewhere' });

    phone.calls = { c1: call({ state: 'incoming', direction: 'incoming' }) };
    expect(enablement(kernel, 'telephony.answer')).toBe(true);
    expect(enablement(kernel, 'telephony.decline')).toBe(true);
    expect(enablement(kernel, 'telephony.call')).toBe(true);

    phone.calls = { c1: call({ state: 'active' }) };
    for (const id of ['telephony.hangup', 'telephony.hold', 'telephony.mute', 'telephony.dtmf']) expect(enablement(kernel, id), id).toBe(true);
    expect(enablement(kernel, 'telephony.call')).toEqual({ reasonKey: 'telephony:reasons.busy' });

    phone.calls = { c1: call({ state: 'hold', held: true }) };
    expect(enablement(kernel, 'telephony.call')).toBe(true);
    expect(enablement(kernel, 'telephony.dtmf')).toEqual({ reasonKey: 'telephony:reasons.noActive' });
  });

  it('a call in progress can still be ended while the connection is down', async () => {
    const { kernel } = await booted();
    phone.status = 'error';
    phone.calls = { c1: call({ state: 'active' }) };
    expect(enablement(kernel, 'telephony.hangup')).toBe(true);
  });
});

describe('running the commands', () => {
  it('hotkeys and the palette reach the engine, with the call named by a button', async () => {
    const { kernel } = await booted({ configured: true });
    phone.status = 'ready';
    phone.calls = { c1: call({ state: 'incoming', direction: 'incoming' }) };
    expect(await kernel.run('telephony.answer', {}, 'hotkey')).toBe(true);
    expect(engine.accept).toHaveBeenCalledWith(undefined);
    await kernel.run('telephony.decline', { id: 'c1' }, 'button');
    expect(engine.decline).toHaveBeenCalledWith('c1');
    await kernel.run('telephony.callAction', { id: 'c1', action: 'holdAndAccept' }, 'button');
    expect(engine.itemAction).toHaveBeenCalledWith('c1', 'holdAndAccept');
    phone.calls = {};
    await kernel.run('telephony.call', { target: '1002' }, 'palette');
    expect(engine.callChoice).toHaveBeenCalledWith('1002');
  });

  it('Test connection shows "testing" while it runs, then the verdict and figures in its place', async () => {
    const { kernel, toast, dismiss } = await booted({ configured: true });
    phone.status = 'ready';
    const enablement = () => kernel.enablement(kernel.commands.get('telephony.testConnection')!.item);
    expect(enablement()).toBe(true);
    await kernel.run('telephony.testConnection', {}, 'palette');
    expect(engine.testConnection).toHaveBeenCalled();
    expect(toast).toHaveBeenNthCalledWith(1, expect.objectContaining({ titleKey: 'telephony:connectionTest.running', timeoutMs: null }));
    expect(dismiss).toHaveBeenCalledWith('id');
    expect(toast).toHaveBeenLastCalledWith(
      expect.objectContaining({ tone: 'success', titleKey: 'telephony:connectionTest.good', values: { rtt: '168 ms', jitter: '2 ms', loss: '0%', mic: '30%' } }),
    );
    // Like a call, it needs the line free.
    phone.calls = { c1: call({ state: 'active' }) };
    expect(enablement()).toEqual({ reasonKey: 'telephony:reasons.busy' });
  });

  it("a button's call action reaches the engine only when it is one the engine knows", async () => {
    const { kernel } = await booted({ configured: true });
    phone.status = 'ready';
    phone.calls = { c1: call({ state: 'incoming', direction: 'incoming' }) };
    expect(await kernel.run('telephony.callAction', { id: 'c1', action: 'format the disk' }, 'button')).toBe(true);
    expect(await kernel.run('telephony.callAction', { action: 'accept' }, 'button')).toBe(true);
    expect(engine.itemAction).not.toHaveBeenCalled();
    await kernel.run('telephony.callAction', { id: 'c1', action: 'dismiss' }, 'button');
    expect(engine.itemAction).toHaveBeenCalledWith('c1', 'dismiss');
  });

  it('a call named by something other than its id is refused, not taken for the current call', async () => {
    const { kernel } = await booted({ configured: true });
    phone.status = 'ready';
    phone.calls = { c1: call({ state: 'incoming', direction: 'incoming' }) };
    expect(await kernel.run('telephony.answer', { id: 1 }, 'button')).toBe(false);
    expect(await kernel.run('telephony.callAction', { id: 'c1', action: 3 }, 'button')).toBe(false);
    expect(engine.accept).not.toHaveBeenCalled();
    expect(engine.itemAction).not.toHaveBeenCalled();
  });

  it('Send DTMF checks its digits', async () => {
    const { kernel } = await booted();
    const validate = kernel.commands.get('telephony.dtmf')!.item.args![0]!.validate!;
    expect(validate('12#*')).toBeNull();
    expect(validate('12a')).toBe('telephony:args.badDigits');
  });

  it('"Call ▸" accepts what the dial-string rules accept, and sip: addresses', () => {
    for (const text of ['1002', '+1 (800) 555-1234', '#12', '#', ',,1', '', 'bob', '1001,,2', '*72', '#,1', 'call 5', ' - '])
      expect(dialable(text) === null, text).toBe(parseDialString(text).kind !== 'empty');
    expect(dialable('sip:bob@uc.local')).toBeNull();
  });

  it('Open dialpad opens the popup', async () => {
    const { kernel } = await booted();
    phone.status = 'ready';
    await kernel.run('telephony.dialpad', {}, 'hotkey');
    expect(phone.dialpadOpen).toBe(true);
  });

  it('TelephonyApi.call for a user without calling explains instead of dialling', async () => {
    const { kernel, toast } = await booted();
    await kernel.get(TelephonyApi).call('1002');
    expect(startEngine).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ tone: 'error', titleKey: 'telephony:reasons.notConfigured' }));
  });

  it('TelephonyApi.onCallEnded tells when a call ends (not when one starts or changes)', async () => {
    const { kernel } = await booted({ configured: true });
    const ended = vi.fn();
    const listening = kernel.get(TelephonyApi).onCallEnded(ended);
    const call = { id: 'c1', state: 'outgoing', number: '1002', displayName: null, direction: 'outgoing', startedAt: null, held: false, muted: false, mergedWith: null, ended: null, seq: 1, recording: 'none', sipCallId: null, transfer: null, consultFor: null } as CallRecord;
    phone.calls.c1 = call;
    await Promise.resolve();
    phone.calls.c1!.state = 'active';
    await Promise.resolve();
    expect(ended).not.toHaveBeenCalled();
    phone.calls.c1!.state = 'none';
    await Promise.resolve();
    expect(ended).toHaveBeenCalledOnce();
    delete phone.calls.c1;
    await Promise.resolve();
    expect(ended).toHaveBeenCalledOnce();
    listening.dispose();
    kernel.dispose();
  });

  it("history's call back becomes available and calls through TelephonyApi", async () => {
    const { kernel } = await booted({ configured: true, all: true });
    kernel.context.route = '/history';
    const callBack = kernel.commands.get('history.callBack')!.item;
    expect(kernel.enablement(callBack)).toEqual({ reasonKey: 'history:reasons.noSelection' });
    await kernel.get(TelephonyApi).call('+14155550142', { displayName: 'Ada Lovelace' });
    expect(engine.call).toHaveBeenCalledWith('+14155550142', { displayName: 'Ada Lovelace' });
    kernel.dispose();
  });

  it('TelephonyApi.testConnection hands back the engine\'s outcome, and says notConfigured when starting the phone finds no calling', async () => {
    const { kernel } = await booted({ configured: true });
    const progress = vi.fn();
    expect(await kernel.get(TelephonyApi).testConnection(progress)).toMatchObject({ ok: true, result: { verdict: 'good' } });
    expect(engine.testConnection).toHaveBeenCalledWith(progress);
    startEngine.mockImplementationOnce(async () => {
      phone.status = 'unconfigured';
      return null as never;
    });
    resetPhone();
    expect(await kernel.get(TelephonyApi).testConnection()).toEqual({ ok: false, reason: 'notConfigured' });
    kernel.dispose();
  });
});
