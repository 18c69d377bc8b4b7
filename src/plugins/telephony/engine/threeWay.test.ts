import { describe, expect, it, vi } from 'vitest';
import type { PhoneEngine } from './PhoneEngine';
import type { Harness } from './test-fakes';
import { calls, engineTests } from './test-engine';

let h: Harness;
let engine: PhoneEngine;

const started = engineTests((s) => ({ h, engine } = s));

describe('3-way calls', () => {
  function fakeMixer() {
    return { start: vi.fn(async () => undefined), setMuted: vi.fn(), stop: vi.fn() };
  }
  async function twoCalls(mixer = fakeMixer(), threeWay = true) {
    await started({ threeWay: () => threeWay, createMixer: () => mixer });
    await engine.call('1002');
    const first = h.ua().sessions[0]!;
    first.connection = {} as RTCPeerConnection;
    first.emit('accepted', { originator: 'remote' });
    engine.toggleHold();
    await engine.call('1003');
    const second = h.ua().sessions[1]!;
    second.connection = {} as RTCPeerConnection;
    second.emit('accepted', { originator: 'remote' });
    const byNumber = (n: string) => calls().find((c) => c.number === n)!;
    return { mixer, first, second, byNumber };
  }

  it('merges the held call with the connected one: resumed, mixed, both legs marked', async () => {
    const { mixer, first, byNumber } = await twoCalls();
    expect(byNumber('1002').state).toBe('hold');
    expect(await engine.merge()).toBe(true);
    expect(first.unhold).toHaveBeenCalled();
    expect(mixer.start).toHaveBeenCalledWith([
      { id: byNumber('1003').id, pc: expect.anything() },
      { id: byNumber('1002').id, pc: expect.anything() },
    ]);
    expect(byNumber('1002')).toMatchObject({ state: 'active', mergedWith: byNumber('1003').id });
    expect(byNumber('1003').mergedWith).toBe(byNumber('1002').id);
    // Not twice.
    expect(await engine.merge()).toBe(false);
  });

  it('mute and hold apply to both legs of a 3-way call', async () => {
    const { mixer, first, second, byNumber } = await twoCalls();
    await engine.merge();
    engine.toggleMute(byNumber('1003').id);
    expect(mixer.setMuted).toHaveBeenLastCalledWith(true);
    expect(byNumber('1002').muted && byNumber('1003').muted).toBe(true);
    expect(second.mute).not.toHaveBeenCalled();
    engine.toggleHold(byNumber('1002').id);
    expect(first.hold).toHaveBeenCalled();
    expect(second.hold).toHaveBeenCalled();
    expect([byNumber('1002').state, byNumber('1003').state]).toEqual(['hold', 'hold']);
    engine.toggleHold(byNumber('1002').id);
    expect([byNumber('1002').state, byNumber('1003').state]).toEqual(['active', 'active']);
  });

  it('ending one leg unmerges: the mix stops and the other call goes on alone', async () => {
    const { mixer, second, byNumber } = await twoCalls();
    await engine.merge();
    second.end('ended', 'remote', 'Terminated');
    expect(mixer.stop).toHaveBeenCalled();
    expect(byNumber('1002')).toMatchObject({ state: 'active', mergedWith: null });
  });

  it('without the 3-way flags nothing is merged', async () => {
    const { mixer } = await twoCalls(fakeMixer(), false);
    expect(await engine.merge()).toBe(false);
    expect(mixer.start).not.toHaveBeenCalled();
  });

  it('a mix that cannot start says so and leaves two separate calls', async () => {
    const mixer = fakeMixer();
    mixer.start.mockRejectedValueOnce(new Error('no audio context'));
    const { byNumber } = await twoCalls(mixer);
    expect(await engine.merge()).toBe(false);
    expect(mixer.stop).toHaveBeenCalled();
    expect(byNumber('1002').mergedWith).toBeNull();
    expect(h.toasts.at(-1)).toMatchObject({ titleKey: 'telephony:errors.mergeTitle' });
  });
});
