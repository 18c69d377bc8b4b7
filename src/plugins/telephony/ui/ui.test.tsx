// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { Suspense } from 'react';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPEED_DIAL_PANEL_COMMAND } from '../../../contracts';
import { allFeatures, definePlugin, Kernel, KernelProvider, Navigation, Notifications, Session, type SessionInfo } from '../../../kernel';
import { telephonyPlugin } from '../index';
import boot from '../locales/en.json';
import type { RunDeps } from '../runs';
import { phone, resetPhone, type CallRecord } from '../state';
import strings from '../strings/en.json';
import CallDock from './CallDock';
import CallsScreen from './CallsScreen';
import { Dialpad } from './Dialpad';

const engine = vi.hoisted(() => ({ toggleRecording: vi.fn(async () => true), callChoice: vi.fn(async () => undefined), itemAction: vi.fn(), hangup: vi.fn(), toggleHold: vi.fn(), toggleMute: vi.fn(), sendDtmf: vi.fn() }));
const settings = vi.hoisted(() => ({
  destinations: vi.fn(async () => [{ destination_type: 'ext' as const, destination_id: '2', destination_name: 'Bob Martinez', destination_parameter: '1002' }]),
  setDnd: vi.fn(async () => true),
  setForwardAlways: vi.fn(async () => null),
}));
vi.mock('../lazy', async () => {
  const { makeRuns } = await vi.importActual<typeof import('../runs')>('../runs');
  const deps = {
    startEngine: async () => engine,
    currentSettings: () => settings,
    callTarget: (await vi.importActual<typeof import('../engine/callTarget')>('../engine/callTarget')).callTarget,
    destinationFrom: (await vi.importActual<typeof import('../settings/callSettings')>('../settings/callSettings')).destinationFrom,
  };
  return { startEngine: deps.startEngine, stopEngine: () => undefined, uiStrings: async () => undefined, currentSettings: deps.currentSettings, runs: makeRuns(deps as unknown as RunDeps) };
});
vi.mock('../engine', async (original) => ({ ...(await original<typeof import('../engine')>()), currentSettings: () => settings }));
// The strings are added below; the real loader fetches them by URL.
const loaded = Promise.resolve();
vi.mock('../uiStrings', () => ({ uiStrings: () => loaded }));
vi.mock('../engine/tonePlayer', () => ({ tones: () => ({ dtmf: vi.fn(), ring: vi.fn(), ringback: vi.fn(), dispose: vi.fn() }) }));

const call = (over: Partial<CallRecord>): CallRecord => ({
  id: 'c1', state: 'active', number: '1002', displayName: 'Bob Martinez', direction: 'outgoing', startedAt: Date.now(), held: false, muted: false, mergedWith: null, ended: null, seq: 1, recording: 'none', sipCallId: 'call-1@test', transfer: null, consultFor: null, ...over,
});

let kernel: Kernel;
beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { telephony: { ...boot, ...strings } } }, interpolation: { escapeValue: false } });
});
beforeEach(async () => {
  resetPhone();
  vi.clearAllMocks();
  kernel = new Kernel({ features: allFeatures(true) });
  kernel.provide(Navigation, { navigate: vi.fn() });
  kernel.provide(Notifications, { toast: vi.fn(() => ''), dismiss: vi.fn(), announce: vi.fn() });
  kernel.provide(Session, { userId: 7, config: { sip: { configured: false } } } as unknown as SessionInfo);
  kernel.load([telephonyPlugin]);
  // As after the first screen: the call commands' enablement is in.
  await kernel.loadLaterParts();
  phone.status = 'ready';
});
afterEach(() => {
  cleanup();
  kernel.dispose();
});

function show(ui: React.ReactNode) {
  return render(
    <KernelProvider kernel={kernel}>
      <Suspense fallback={null}>{ui}</Suspense>
    </KernelProvider>,
  );
}

// The calls' own buttons (the dock's do-not-disturb and forwarding toggles follow the list).
const buttons = (el: HTMLElement) => within(within(el).queryByRole('list') ?? el).getAllByRole('button').map((b) => b.textContent);

describe('call dock', () => {
  it('shows a ringing call with Accept and Decline as its first two controls', async () => {
    phone.calls = { c1: call({ state: 'incoming', direction: 'incoming', startedAt: null }) };
    show(<CallDock />);
    const dock = await screen.findByRole('region', { name: 'Current calls' });
    expect(buttons(dock)).toEqual(['Accept', 'Decline']);
    expect(within(dock).getByRole('group', { name: 'Bob Martinez' }).textContent).toContain('Ringing');
    fireEvent.click(within(dock).getByRole('button', { name: 'Accept' }));
    await vi.waitFor(() => expect(engine.itemAction).toHaveBeenCalledWith('c1', 'accept'));
  });

  it('puts a new ringing call first, offering hold-and-accept, decline, end-and-accept', async () => {
    phone.calls = {
      c1: call({ state: 'active' }),
      c2: call({ id: 'c2', seq: 2, state: 'incoming', direction: 'incoming', number: '1003', displayName: 'Carol Okafor', startedAt: null }),
    };
    show(<CallDock />);
    const items = (await screen.findByRole('region', { name: 'Current calls' })).querySelectorAll('li');
    expect(items[0]!.textContent).toContain('Carol Okafor');
    expect(buttons(items[0] as HTMLElement)).toEqual(['Hold and accept', 'Decline', 'End and accept']);
    expect(buttons(items[1] as HTMLElement)).toEqual(['Hold', 'Mute', 'Transfer', 'Devices', 'Keypad', 'Hang up']);
  });

  it('a connected call shows its timer; mute, hold, hang-up and the keypad run commands for that call', async () => {
    phone.calls = { c1: call({ state: 'active', startedAt: Date.now() - 65_000 }) };
    show(<CallDock />);
    const dock = await screen.findByRole('region', { name: 'Current calls' });
    expect(dock.textContent).toContain('00:01:05');
    fireEvent.click(within(dock).getByRole('button', { name: 'Mute' }));
    fireEvent.click(within(dock).getByRole('button', { name: 'Hold' }));
    fireEvent.click(within(dock).getByRole('button', { name: 'Hang up' }));
    const keypadButton = within(dock).getByRole('button', { name: 'Keypad' });
    expect(keypadButton.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(keypadButton);
    const keypad = within(dock).getByRole('group', { name: 'Keypad for the call with Bob Martinez' });
    expect(within(keypad).getAllByRole('button')).toHaveLength(12);
    fireEvent.click(within(keypad).getByRole('button', { name: '#' }));
    await act(async () => undefined);
    expect(engine.toggleMute).toHaveBeenCalledWith('c1');
    expect(engine.toggleHold).toHaveBeenCalledWith('c1');
    expect(engine.hangup).toHaveBeenCalledWith('c1');
    expect(engine.sendDtmf).toHaveBeenCalledWith('#', 'c1');
  });

  it('a held call next to an active one offers end-and-accept, merge (3-way allowed), swap and End; alone, Resume and End', async () => {
    phone.calls = { c1: call({ state: 'hold', held: true }), c2: call({ id: 'c2', seq: 2, displayName: 'Carol Okafor' }) };
    show(<CallDock />);
    const held = await screen.findByRole('group', { name: 'Bob Martinez' });
    expect(held.textContent).toContain('On hold');
    expect(buttons(held)).toEqual(['End and accept', 'Merge', 'Swap', 'End']);
    await act(async () => {
      delete phone.calls.c2;
    });
    expect(buttons(screen.getByRole('group', { name: 'Bob Martinez' }))).toEqual(['Resume', 'End']);
  });

  it('an ended call says so, without buttons, until its record goes', async () => {
    phone.calls = { c1: call({ state: 'none', ended: 'ended' }) };
    show(<CallDock />);
    const dock = await screen.findByRole('region', { name: 'Current calls' });
    expect(dock.textContent).toContain('Call ended');
    expect(within(within(dock).getByRole('list')).queryAllByRole('button')).toHaveLength(0);
    await act(async () => {
      phone.calls = {};
    });
    expect(screen.queryByRole('region', { name: 'Current calls' })).toBeNull();
  });
});

describe('dialpad', () => {
  it('has 12 keys, sizes the number by its length, backspace and Enter to call', async () => {
    show(<Dialpad />);
    const input = await screen.findByRole('textbox', { name: 'Number to call' });
    expect(within(screen.getByRole('group', { name: 'Dialpad keys' })).getAllByRole('button')).toHaveLength(12);
    for (const key of ['1', '0', '0', '2']) fireEvent.click(screen.getByRole('button', { name: key }));
    expect((input as HTMLInputElement).value).toBe('1002');
    expect(input.style.fontSize).toBe('24px');
    fireEvent.change(input, { target: { value: '1800555123456' } });
    expect(input.style.fontSize).toBe('20px');
    fireEvent.click(screen.getByRole('button', { name: 'Delete last digit' }));
    expect((input as HTMLInputElement).value).toBe('180055512345');
    fireEvent.keyDown(input, { key: 'Enter' });
    await act(async () => undefined);
    expect(engine.callChoice).toHaveBeenCalledWith('180055512345');
  });

  it('refuses an empty number with a message', async () => {
    show(<Dialpad />);
    fireEvent.click(await screen.findByRole('button', { name: 'Call' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a number to call.');
    expect(engine.callChoice).not.toHaveBeenCalled();
  });

  it('disables Call, with the reason, while a call uses the line', async () => {
    phone.calls = { c1: call({ state: 'active' }) };
    show(<Dialpad />);
    const callButton = await screen.findByRole('button', { name: 'Call' });
    expect((callButton as HTMLButtonElement).disabled).toBe(true);
    expect(document.getElementById(callButton.getAttribute('aria-describedby')!)?.textContent).toBe('Hold or end the current call first.');
    await act(async () => {
      phone.calls.c1!.state = 'hold';
    });
    expect((screen.getByRole('button', { name: 'Call' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("offers the speed-dial side panel only when a plugin provides it (SPEED_DIAL_PANEL_COMMAND), named by that command's title", async () => {
    show(<Dialpad />);
    await screen.findByRole('button', { name: 'Call' });
    expect(screen.queryByRole('button', { name: 'Open speed dial' })).toBeNull();
    cleanup();
    i18next.addResource('en', 'sdtest', 'panel', 'Open speed dial');
    const run = vi.fn();
    kernel.load([definePlugin({ id: 'speed-dial', titleKey: 'sdtest:panel', commands: [{ id: SPEED_DIAL_PANEL_COMMAND, titleKey: 'sdtest:panel', run }] })]);
    show(<Dialpad />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open speed dial' }));
    await act(async () => undefined);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('redials the last dialled number', async () => {
    show(<Dialpad />);
    expect((await screen.findByRole('button', { name: 'Redial' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      phone.lastDialled = '1003';
    });
    fireEvent.click(screen.getByRole('button', { name: 'Redial 1003' }));
    await act(async () => undefined);
    expect(engine.callChoice).toHaveBeenCalledWith('1003');
  });
});

describe('calls screen', () => {
  it('lists the current calls and offers the dialpad; says when there are none', async () => {
    show(<CallsScreen />);
    expect(await screen.findByText(/No calls right now/)).toBeTruthy();
    await act(async () => {
      phone.calls = { c1: call({ state: 'hold', held: true }) };
    });
    const list = screen.getByRole('grid', { name: 'Current calls' });
    expect(within(list).getByRole('row').textContent).toContain('Bob Martinez On hold');
    expect(screen.getByRole('textbox', { name: 'Number to call' })).toBeTruthy();
  });

  it('tells a window that does not hold the phone, and offers to take it over', async () => {
    phone.status = 'elsewhere';
    show(<CallsScreen />);
    expect(await screen.findByText('Calling is active in another window')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Use calling here' })).toBeTruthy();
  });
});

describe('call settings and recording', () => {
  it('do not disturb switches through its commands; the status line says where calls go', async () => {
    phone.settings = { dnd: false, forwardAlways: { enabled: false, destination: null }, saving: false };
    show(<CallsScreen />);
    const region = await screen.findByRole('region', { name: 'Call settings' });
    expect(region.textContent).toContain('Calls ring here.');
    fireEvent.click(within(region).getByRole('switch', { name: 'Do not disturb' }));
    await act(async () => undefined);
    expect(settings.setDnd).toHaveBeenCalledWith(true);
    await act(async () => {
      phone.settings.dnd = true;
    });
    expect(region.textContent).toContain('callers hear a busy tone');
    expect((within(region).getByRole('switch', { name: 'Do not disturb' }) as HTMLInputElement).checked).toBe(true);
  });

  it('forwarding needs a destination: refused with the message, then saved to the chosen colleague or number', async () => {
    phone.settings = { dnd: false, forwardAlways: { enabled: false, destination: null }, saving: false };
    show(<CallsScreen />);
    const region = await screen.findByRole('region', { name: 'Call settings' });
    const forward = within(region).getByRole('switch', { name: 'Forward all calls' });
    fireEvent.click(forward);
    expect((await within(region).findByRole('alert')).textContent).toBe('Choose where to forward calls.');
    expect(settings.setForwardAlways).not.toHaveBeenCalled();

    const select = within(region).getByRole('combobox', { name: 'Forward calls to' }) as HTMLSelectElement;
    await within(select).findByRole('option', { name: 'Bob Martinez (1002)' });
    fireEvent.change(select, { target: { value: '__number' } });
    const number = within(region).getByRole('textbox', { name: 'Phone number or extension' });
    fireEvent.change(number, { target: { value: 'not a number' } });
    fireEvent.click(forward);
    expect(await within(region).findByText('Enter an extension or a phone number to forward calls to.')).toBeTruthy();
    expect((number as HTMLInputElement).value).toBe('not a number');
    fireEvent.change(number, { target: { value: '+1 415 555 0142' } });
    fireEvent.click(forward);
    await act(async () => undefined);
    expect(settings.setForwardAlways).toHaveBeenCalledWith(true, { destination_type: 'phone', destination_id: null, destination_name: null, destination_parameter: '+14155550142' });
  });

  it('the dock offers the toggles, and forwarding there once a destination is saved', async () => {
    phone.calls = { c1: call({}) };
    phone.settings = { dnd: false, forwardAlways: { enabled: false, destination: null }, saving: false };
    show(<CallDock />);
    const toggles = await screen.findByRole('group', { name: 'Call settings' });
    expect((within(toggles).getByRole('button', { name: 'Forward all calls' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      phone.settings.forwardAlways = { enabled: false, destination: { destination_type: 'ext', destination_id: '2', destination_name: 'Bob Martinez', destination_parameter: '1002' } };
    });
    const forward = within(toggles).getByRole('button', { name: 'Forward all calls to Bob Martinez (1002)' });
    expect(forward.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(forward);
    expect(settings.setForwardAlways).toHaveBeenCalledWith(true);
  });

  it('recording: the button follows the policy and the call (Start, Pause, Resume); a forced recording is announced before answer', async () => {
    phone.recordingPolicy = { mode: 'on_demand', pauseSequence: '*82', onDemandSequence: '*81' };
    phone.calls = { c1: call({}) };
    show(<CallDock />);
    const item = await screen.findByRole('group', { name: 'Bob Martinez' });
    fireEvent.click(within(item).getByRole('button', { name: 'Start recording' }));
    await act(async () => undefined);
    expect(engine.toggleRecording).toHaveBeenCalledWith('c1');
    await act(async () => {
      phone.calls.c1!.recording = 'recording';
    });
    expect(item.textContent).toContain('Recording');
    expect(within(item).getByRole('button', { name: 'Pause recording' })).toBeTruthy();
    await act(async () => {
      phone.calls.c1!.recording = 'paused';
    });
    expect(within(item).getByRole('button', { name: 'Resume recording' })).toBeTruthy();
    await act(async () => {
      phone.recordingPolicy.mode = 'on';
      phone.calls.c1 = call({ state: 'outgoing', startedAt: null });
    });
    expect(item.textContent).toContain('This call will be recorded');
    await act(async () => {
      phone.recordingPolicy.mode = 'off';
      phone.calls.c1 = call({});
    });
    expect(within(item).queryByRole('button', { name: /recording/ })).toBeNull();
  });
});
