import { describe, expect, it } from 'vitest';
import { Connections, RETRY_SCHEDULE_S, type Clock } from '../../src/shell/connections';

class FakeClock implements Clock {
  t = 0;
  timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private seq = 0;
  now() {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number) {
    const id = ++this.seq;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(h: unknown) {
    this.timers = this.timers.filter((x) => x.id !== h);
  }
  advance(ms: number) {
    this.t += ms;
    const due = this.timers.filter((x) => x.at <= this.t);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const d of due) d.fn();
  }
}

describe('connection banner schedule', () => {
  it('retries after 0, 15, 30, 60, 300 s, then offers a manual retry, then goes silent', () => {
    const clock = new FakeClock();
    const c = new Connections(clock);
    const retries: number[] = [];
    const h = c.register('xmpp', 'chat', () => retries.push(clock.now()));
    h.report('connected');
    expect(c.views.xmpp!.phase).toBe('hidden');
    for (let i = 0; i < RETRY_SCHEDULE_S.length; i++) {
      h.report('disconnected');
      expect(c.views.xmpp!.phase).toBe('retrying');
      clock.advance(RETRY_SCHEDULE_S[i]! * 1000);
    }
    let at = 0;
    expect(retries).toEqual(RETRY_SCHEDULE_S.map((s) => (at += s * 1000)));
    h.report('disconnected');
    expect(c.views.xmpp!.phase).toBe('manual');
    c.retryNow('xmpp');
    expect(retries).toHaveLength(6);
    h.report('error');
    expect(c.views.xmpp!.phase).toBe('silent');
  });

  it('shows a success banner for 2 s when a dropped connection comes back, and restarts the schedule', () => {
    const clock = new FakeClock();
    const c = new Connections(clock);
    const h = c.register('sip', 'phone', () => undefined);
    h.report('connected');
    h.report('disconnected');
    clock.advance(0);
    h.report('connected');
    expect(c.views.sip!.phase).toBe('success');
    clock.advance(1999);
    expect(c.views.sip!.phase).toBe('success');
    clock.advance(1);
    expect(c.views.sip!.phase).toBe('hidden');
    h.report('disconnected');
    expect(c.views.sip!.nextRetryAt).toBe(clock.now());
  });

  it('says "connected" after the first connection and "connected again" only after a drop', () => {
    const clock = new FakeClock();
    const c = new Connections(clock);
    const h = c.register('xmpp', 'chat', () => undefined);
    h.report('connecting');
    expect(c.views.xmpp!.phase).toBe('connecting');
    h.report('connected');
    expect(c.views.xmpp).toMatchObject({ phase: 'success', again: false });
    clock.advance(2000);
    h.report('disconnected');
    clock.advance(0);
    h.report('connecting');
    h.report('connected');
    expect(c.views.xmpp).toMatchObject({ phase: 'success', again: true });
  });

  it('forgets a connection when its plugin disposes it', () => {
    const c = new Connections(new FakeClock());
    const h = c.register('x', 'x', () => undefined);
    h.dispose();
    expect(c.views.x).toBeUndefined();
  });
});
