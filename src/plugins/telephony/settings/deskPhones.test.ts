import { afterEach, describe, expect, it, vi } from 'vitest';
import { phone, resetPhone, type CallRecord } from '../state';
import { DeskPhones } from './deskPhones';

const flush = () => new Promise((r) => setTimeout(r, 0));

function fakeApi(answers: boolean[]) {
  const get = vi.fn(async () => ({ devices: [], desk_phone: answers.shift() ?? false }));
  return { get } as never as { get: typeof get };
}

afterEach(() => resetPhone());

describe('DeskPhones', () => {
  it('asks at start and again whenever a call connects, not on every change', async () => {
    const api = fakeApi([false, true]);
    const watch = new DeskPhones(api as never);
    watch.start();
    await flush();
    expect(api.get).toHaveBeenCalledWith('/v1/devices/check', undefined, expect.anything());
    expect(phone.deskPhone).toBe(false);

    phone.calls.a = { id: 'a', state: 'outgoing' } as CallRecord;
    await flush();
    expect(api.get).toHaveBeenCalledTimes(1);
    phone.calls.a.state = 'active';
    await flush();
    expect(api.get).toHaveBeenCalledTimes(2);
    expect(phone.deskPhone).toBe(true);
    phone.calls.a.muted = true;
    await flush();
    expect(api.get).toHaveBeenCalledTimes(2);
    watch.stop();
  });

  it('keeps what it knew when the server cannot answer', async () => {
    const api = { get: vi.fn().mockResolvedValueOnce({ devices: [], desk_phone: true }).mockRejectedValueOnce(new Error('503')) };
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const watch = new DeskPhones(api as never);
    watch.start();
    await flush();
    await watch.refresh();
    expect(phone.deskPhone).toBe(true);
    expect(err).toHaveBeenCalled();
    err.mockRestore();
    watch.stop();
  });
});
