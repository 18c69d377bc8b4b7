import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToastInput } from '../../../kernel';
import { ApiError } from '../../../kernel';
import { FORWARDING_REFRESH_MS, NOT_AUTHORIZED_TO_UPDATE, type Destination } from '../../../wire/calling';
import { phone, resetPhone } from '../state';
import { CallSettings, destinationFrom, saveFailure } from './callSettings';

const bob: Destination = { destination_type: 'ext', destination_id: '2', destination_name: 'Bob Martinez', destination_parameter: '1002' };

function fakeApi() {
  const server = { dnd: false, always: { enabled: false, destination: null as Destination | null }, fail: null as Error | null };
  const puts: Array<{ path: string; body: unknown }> = [];
  const gets: string[] = [];
  const api = {
    get: vi.fn(async (path: string) => {
      gets.push(path);
      if (path.endsWith('donotdisturb')) return { do_not_disturb: server.dnd };
      if (path.endsWith('forwards/always')) return server.always;
      return { items: [bob] };
    }),
    put: vi.fn(async (path: string, body: unknown) => {
      puts.push({ path, body });
      if (server.fail) throw server.fail;
      if (path.endsWith('donotdisturb')) {
        server.dnd = (body as { do_not_disturb: boolean }).do_not_disturb;
        return { do_not_disturb: server.dnd };
      }
      server.always = body as typeof server.always;
      return server.always;
    }),
  };
  return { server, puts, gets, api };
}

let toasts: ToastInput[];
let announced: string[];
const notify = () => ({
  toast: (t: ToastInput) => {
    toasts.push(t);
    return String(toasts.length);
  },
  dismiss: () => undefined,
  announce: (text: string) => void announced.push(text),
});
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key);

beforeEach(() => {
  vi.useFakeTimers();
  resetPhone();
  toasts = [];
  announced = [];
});
afterEach(() => vi.useRealTimers());

describe('call settings', () => {
  it('reads do-not-disturb and forward-always at start and again every 5 minutes', async () => {
    const f = fakeApi();
    const s = new CallSettings(f.api as never, notify(), t);
    s.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(phone.settings).toMatchObject({ dnd: false, forwardAlways: { enabled: false } });
    f.server.dnd = true; // changed from another device
    await vi.advanceTimersByTimeAsync(FORWARDING_REFRESH_MS);
    expect(phone.settings.dnd).toBe(true);
    expect(f.gets.filter((p) => p.endsWith('donotdisturb'))).toHaveLength(2);
    s.stop();
  });

  it('a saved change is mirrored from the server and announced', async () => {
    const f = fakeApi();
    const s = new CallSettings(f.api as never, notify(), t);
    await s.refresh();
    expect(await s.setDnd(true)).toBe(true);
    expect(f.puts).toEqual([{ path: '/v1/broad/donotdisturb', body: { do_not_disturb: true } }]);
    expect(phone.settings.dnd).toBe(true);
    expect(announced).toEqual(['telephony:settings.announce.dndOn']);
  });

  it('forward-always needs a destination: without one nothing is sent and the rule is returned', async () => {
    const f = fakeApi();
    const s = new CallSettings(f.api as never, notify(), t);
    await s.refresh();
    expect(await s.setForwardAlways(true, null)).toBe('destination_required');
    expect(await s.setForwardAlways(true, { ...bob, destination_type: 'queue' })).toBe('destination_not_available');
    expect(f.puts).toHaveLength(0);
    expect(await s.setForwardAlways(true, bob)).toBeNull();
    expect(phone.settings.forwardAlways).toEqual({ enabled: true, destination: bob });
    // Off keeps the destination, so the dock can switch it back on.
    expect(await s.setForwardAlways(false)).toBeNull();
    expect(f.puts.at(-1)!.body).toEqual({ enabled: false, destination: bob });
    expect(await s.setForwardAlways(true)).toBeNull();
    expect(f.puts.at(-1)!.body).toEqual({ enabled: true, destination: bob });
  });

  it('a save without authorisation shows the no-permission notice and keeps the old value', async () => {
    const f = fakeApi();
    const s = new CallSettings(f.api as never, notify(), t);
    await s.refresh();
    f.server.fail = new ApiError(403, { error: 'forbidden', message: NOT_AUTHORIZED_TO_UPDATE });
    expect(await s.setDnd(true)).toBe(false);
    expect(phone.settings.dnd).toBe(false);
    expect(toasts[0]).toMatchObject({ tone: 'error', titleKey: 'telephony:settings.notAuthorized', messageKey: 'telephony:settings.contactAdmin' });
    expect(phone.settings.saving).toBe(false);
  });

  it('save failures: a message containing "authorized" is the no-permission notice, others say Save Failed! with the message', () => {
    expect(saveFailure(new ApiError(400, { error: 'x', message: 'Not authorized for this line' }))).toMatchObject({ titleKey: 'telephony:settings.notAuthorized' });
    expect(saveFailure(new ApiError(400, { error: 'x', message: 'Invalid forwarding setting' }))).toMatchObject({ titleKey: 'telephony:settings.saveFailed', message: 'Invalid forwarding setting' });
    expect(saveFailure(new TypeError('Failed to fetch'))).toMatchObject({ titleKey: 'telephony:settings.saveFailed', messageKey: 'telephony:settings.tryAgain' });
  });

  it('a destination is a colleague (by extension or name) or a routable number', () => {
    expect(destinationFrom('1002', [bob])).toBe(bob);
    expect(destinationFrom('bob martinez', [bob])).toBe(bob);
    expect(destinationFrom(' (415) 555-0142 ', [bob])).toEqual({ destination_type: 'phone', destination_id: null, destination_name: null, destination_parameter: '4155550142' });
    expect(destinationFrom('1003', [bob])).toMatchObject({ destination_type: 'phone', destination_parameter: '1003' });
    expect(destinationFrom('call me', [bob])).toBeNull();
    expect(destinationFrom('', [bob])).toBeNull();
  });
});
