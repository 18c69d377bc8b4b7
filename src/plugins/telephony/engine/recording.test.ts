import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { phone, resetPhone } from '../state';
import { PhoneEngine } from './PhoneEngine';
import { harness, type Harness } from './test-fakes';
import { flush, freshPhone, only } from './test-engine';

let h: Harness;
let engine: PhoneEngine;

beforeEach(freshPhone);
afterEach(() => {
  engine?.dispose();
  vi.useRealTimers();
});

describe('call recording', () => {
  async function startedWith(mode: 'on' | 'on_demand' | 'off'): Promise<void> {
    h = harness();
    h.recording.mode = mode;
    engine = new PhoneEngine(h.deps);
    engine.start();
    await flush();
  }
  async function connected() {
    await engine.call('1002');
    const s = h.ua().sessions[0]!;
    s.emit('accepted', { originator: 'remote' });
    return s;
  }

  it('reads the policy and the phone digit sequences at start', async () => {
    await startedWith('on_demand');
    expect(phone.recordingPolicy).toEqual({ mode: 'on_demand', pauseSequence: '*82', onDemandSequence: '*81' });
  });

  it('on demand: Start, then Pause and Resume in turn, each confirmed by the server for this Call-ID', async () => {
    await startedWith('on_demand');
    const s = await connected();
    expect(only().recording).toBe('none');
    expect(only().sipCallId).toBe(s._request.call_id);
    expect(await engine.toggleRecording()).toBe(true);
    expect(h.posts.at(-1)).toEqual({ path: `/v1/calls/${encodeURIComponent(s._request.call_id)}/recording`, body: { action: 'start' } });
    expect(only().recording).toBe('recording');
    await engine.toggleRecording();
    expect(h.posts.at(-1)!.body).toEqual({ action: 'pause' });
    expect(only().recording).toBe('paused');
    await engine.toggleRecording();
    expect(h.posts.at(-1)!.body).toEqual({ action: 'resume' });
    expect(only().recording).toBe('recording');
    // Ending the call resets the flags.
    s.end('ended', 'remote', 'Terminated');
    expect(only().recording).toBe('none');
  });

  it('forced on: an answered call is recorded from the start and may only be paused; off: nothing to do', async () => {
    await startedWith('on');
    await connected();
    expect(only().recording).toBe('recording');
    await engine.toggleRecording();
    expect(h.posts.at(-1)!.body).toEqual({ action: 'pause' });
    engine.dispose();
    resetPhone();
    await startedWith('off');
    await connected();
    expect(await engine.toggleRecording()).toBe(false);
    expect(h.posts.filter((p) => p.path.endsWith('/recording'))).toHaveLength(0);
  });

  it('a refused change keeps the state and says so', async () => {
    await startedWith('on_demand');
    await connected();
    h.recording.fail = true;
    expect(await engine.toggleRecording()).toBe(false);
    expect(only().recording).toBe('none');
    expect(h.toasts.at(-1)).toMatchObject({ tone: 'error', titleKey: 'telephony:errors.recordingTitle' });
  });
});
