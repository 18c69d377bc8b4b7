import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../server/csp';
import { readUccSettings } from '../../server/settings';
import { servicePorts } from '../../server/services/ports';
import { uaSockets } from '../../src/plugins/telephony/engine/jssipUa';

describe('SIP WebSockets of a cluster (two Kamailios)', () => {
  it('lists both Kamailios in a cluster, the first alone otherwise, or what UC_SIP_WS_URLS says', () => {
    expect(readUccSettings({ UC_PORT_BASE: '39000' }).sipWsUrls).toEqual(['ws://127.0.0.1:39060/']);
    const cluster = readUccSettings({ UC_PORT_BASE: '39000', UC_CLUSTER: '1' });
    expect(cluster.sipWsUrls).toEqual(['ws://127.0.0.1:39060/', 'ws://127.0.0.2:39240/']);
    expect(cluster.sipWsUrl).toBe('ws://127.0.0.1:39060/');
    expect(readUccSettings({ UC_SIP_WS_URLS: 'wss://a.example/sip, wss://b.example/sip' }).sipWsUrls).toEqual(['wss://a.example/sip', 'wss://b.example/sip']);
  });

  it("lets pages connect to every Kamailio (CSP connect-src)", () => {
    const csp = contentSecurityPolicy(readUccSettings({ UC_PORT_BASE: '39000', UC_CLUSTER: '1' }), { uploadUrl: 'http://127.0.0.1:39280/upload', ports: servicePorts(39000), cluster: true });
    const connect = csp.split('; ').find((d) => d.startsWith('connect-src'))!;
    expect(connect).toContain('ws://127.0.0.1:39060');
    expect(connect).toContain('ws://127.0.0.2:39240');
  });

  it("gives JsSIP every Kamailio with equal weights (spread, and failover when one dies)", () => {
    const sockets = uaSockets({ wsUrl: 'ws://127.0.0.1:39060/', wsUrls: ['ws://127.0.0.1:39060/', 'ws://127.0.0.2:39240/'] });
    expect(sockets.map((s) => [s.socket.url, s.weight])).toEqual([
      ['ws://127.0.0.1:39060/', 1],
      ['ws://127.0.0.2:39240/', 1],
    ]);
    expect(uaSockets({ wsUrl: 'ws://127.0.0.1:39060/' }).map((s) => s.socket.url)).toEqual(['ws://127.0.0.1:39060/']);
  });
});
