import { describe, expect, it, vi } from 'vitest';
import { phone } from '../state';
import type { Harness } from './test-fakes';
import { PhoneEngine } from './PhoneEngine';
import { harness } from './test-fakes';
import { engineTests, flush, only } from './test-engine';

let h: Harness;
let engine: PhoneEngine;

const started = engineTests((s) => ({ h, engine } = s));

describe('the user agent', () => {
  it('is given every Kamailio of a cluster the credentials list, or the one it names', async () => {
    await started();
    expect(h.ua().config.wsUrls).toBeUndefined();
    const cluster = harness();
    cluster.wsUrls = ['ws://127.0.0.1:15060/', 'ws://127.0.0.2:15240/'];
    const second = new PhoneEngine(cluster.deps);
    second.start();
    await flush();
    expect(cluster.ua().config).toEqual(expect.objectContaining({ wsUrl: 'ws://127.0.0.1:15060/', wsUrls: ['ws://127.0.0.1:15060/', 'ws://127.0.0.2:15240/'] }));
    second.dispose();
  });

  it('renews credentials on the same connection before they expire, without touching calls', async () => {
    await started();
    const ua = h.ua();
    ua.ring('1002');
    engine.accept();
    await vi.advanceTimersByTimeAsync(0.8 * 3_600_000);
    expect(ua.set).toHaveBeenCalledWith('authorization_user', expect.stringMatching(/:1001$/));
    expect(ua.set).toHaveBeenCalledWith('password', 'secret-2');
    expect(ua.register).toHaveBeenCalled();
    expect(ua.stop).not.toHaveBeenCalled();
    expect(h.uas).toHaveLength(1);
    expect(only().state).not.toBe('none');
  });

  it('calls use the TURN server of the credentials, and the renewed credential once renewed', async () => {
    const turn = (n: number) => [{ urls: ['turn:127.0.0.1:3478?transport=udp'], username: `${n}:7`, credential: `c${n}` }];
    await started();
    h.iceServers = turn(1);
    await vi.advanceTimersByTimeAsync(0.8 * 3_600_000);
    await engine.call('1002');
    expect(h.ua().call).toHaveBeenLastCalledWith('sip:1002@uc.local', expect.objectContaining({ pcConfig: { iceServers: turn(1), rtcpMuxPolicy: 'require' } }));
    h.iceServers = turn(2);
    await vi.advanceTimersByTimeAsync(0.8 * 3_600_000);
    h.ua().ring('1003');
    engine.accept();
    expect(h.ua().sessions.at(-1)!.answer).toHaveBeenLastCalledWith(expect.objectContaining({ pcConfig: { iceServers: turn(2), rtcpMuxPolicy: 'require' } }));
  });

  it('fetches new credentials once when registration fails authentication', async () => {
    await started();
    h.ua().emit('registrationFailed', { cause: 'Authentication Error' });
    await flush();
    expect(phone.status).toBe('error');
    expect(h.reports.at(-1)).toBe('error');
    expect(h.credentialFetches).toBe(2);
    expect(h.ua().register).toHaveBeenCalledTimes(1);
  });

  it('re-registers after the browser comes back online, once restart_after_online_ms has passed', async () => {
    await started();
    engine.online();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(h.ua().register).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(h.ua().register).toHaveBeenCalled();
  });

  it('after a network change a connected call restarts ICE once SIP is registered again (held calls wait)', async () => {
    await started();
    await engine.call('1002');
    const s = h.ua().sessions[0]!;
    s.emit('accepted', { originator: 'remote' });
    engine.online();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(s.renegotiate).not.toHaveBeenCalled();
    h.ua().emit('registered');
    expect(s.renegotiate).toHaveBeenCalledWith({ rtcOfferConstraints: { iceRestart: true } });
    // Once per network change.
    h.ua().emit('registered');
    expect(s.renegotiate).toHaveBeenCalledTimes(1);
  });

  it('reconnects with a new agent when the connection is down and no call is live', async () => {
    await started();
    const old = h.ua();
    old.connected = false;
    old.emit('disconnected');
    expect(h.reports.at(-1)).toBe('disconnected');
    engine.reconnect();
    await flush();
    expect(old.stop).toHaveBeenCalled();
    expect(h.uas).toHaveLength(2);
    expect(phone.status).toBe('ready');
  });
});
