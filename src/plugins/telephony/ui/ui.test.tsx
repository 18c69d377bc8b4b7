// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { Suspense } from 'react';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, Kernel, KernelProvider, Navigation, Notifications, Session, type SessionInfo } from '../../../kernel';
import { telephonyPlugin } from '../index';
import boot from '../locales/en.json';
import { phone, resetPhone, type CallRecord } from '../state';
import strings from '../strings/en.json';
import CallDock from './CallDock';
import CallsScreen from './CallsScreen';
import { Dialpad } from './Dialpad';

const engine = vi.hoisted(() => ({ callChoice: vi.fn(async () => undefined), itemAction: vi.fn(), hangup: vi.fn(), toggleHold: vi.fn(), toggleMute: vi.fn(), sendDtmf: vi.fn() }));
vi.mock('../lazy', () => ({ startEngine: async () => engine, stopEngine: () => undefined, uiStrings: async () => undefined }));
// The strings are added below; the real loader fetches them by URL.
const loaded = Promise.resolve();
vi.mock('../uiStrings', () => ({ uiStrings: () => loaded, followLanguage: () => undefined }));
vi.mock('../engine/tonePlayer', () => ({ tones: () => ({ dtmf: vi.fn(), ring: vi.fn(), ringback: vi.fn(), dispose: vi.fn() }) }));

const call = (over: Partial<CallRecord>): CallRecord => ({
  id: 'c1', state: 'active', number: '1002', displayName: 'Bob Martinez', direction: 'outgoing', startedAt: Date.now(), held: false, muted: false, mergedWith: null, ended: null, seq: 1, ...over,
});

let kernel: Kernel;
beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { telephony: { ...boot, ...strings } } }, interpolation: { escapeValue: false } });
});
beforeEach(() => {
  resetPhone();
  vi.clearAllMocks();
  kernel = new Kernel({ features: allFeatures(true) });
  kernel.provide(Navigation, { navigate: vi.fn() });
  kernel.provide(Notifications, { toast: vi.fn(() => ''), dismiss: vi.fn(), announce: vi.fn() });
  kernel.provide(Session, { userId: 7, config: { sip: { configured: false } } } as unknown as SessionInfo);
  kernel.load([telephonyPlugin]);
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

const buttons = (el: HTMLElement) => within(el).getAllByRole('button').map((b) => b.textContent);

describe('call dock', () => {
  it('shows a ringing call with Accept and Decline as its first two controls', async () => {
    phone.calls = { c1: call({ state: 'incoming', direction: 'incoming', startedAt: null }) };
    show(<CallDock />);
    const dock = await screen.findByRole('region', { name: 'Current calls' });
    expect(buttons(dock)).toEqual(['Accept', 'Decline']);
    expect(within(dock).getByRole('group', { name: 'Bob Martinez' }).textContent).toContain('Ringing');
    fireEvent.click(within(dock).getByRole('button', { name: 'Accept' }));
    await act(async () => undefined);
    expect(engine.itemAction).toHaveBeenCalledWith('c1', 'accept');
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
    expect(buttons(items[1] as HTMLElement)).toEqual(['Hold', 'Mute', 'Keypad', 'Hang up']);
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

  it('a held call next to an active one offers end-and-accept, swap and End; alone, Resume and End', async () => {
    phone.calls = { c1: call({ state: 'hold', held: true }), c2: call({ id: 'c2', seq: 2, displayName: 'Carol Okafor' }) };
    show(<CallDock />);
    const held = await screen.findByRole('group', { name: 'Bob Martinez' });
    expect(held.textContent).toContain('On hold');
    expect(buttons(held)).toEqual(['End and accept', 'Swap', 'End']);
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
    expect(within(dock).queryAllByRole('button')).toHaveLength(0);
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
