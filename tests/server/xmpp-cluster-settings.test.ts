import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../server/csp';
import { readServicesConfig } from '../../server/services/layout';
import { readUccSettings } from '../../server/settings';

const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `))?.split(' ').slice(1) ?? [];

describe('the chat nodes handed to the browser (issue 25)', () => {
  it('one node by default; with UC_CLUSTER=1 both, the first first, and the page may reach both', () => {
    expect(readUccSettings({ UC_PORT_BASE: '36000' }).xmppWsUrls).toEqual(['ws://127.0.0.1:36280/ws']);
    const env = { UC_PORT_BASE: '36000', UC_CLUSTER: '1' };
    const settings = readUccSettings(env);
    expect(settings.xmppWsUrls).toEqual(['ws://127.0.0.1:36280/ws', 'ws://127.0.0.1:36230/ws']);
    expect(settings.xmppWsUrl).toBe('ws://127.0.0.1:36280/ws');
    const csp = contentSecurityPolicy(settings, readServicesConfig(env, '/tmp/uc-csp'));
    expect(directive(csp, 'connect-src')).toEqual(expect.arrayContaining(['ws://127.0.0.1:36280', 'ws://127.0.0.1:36230', 'http://127.0.0.1:36280', 'http://127.0.0.1:36230']));
    expect(directive(csp, 'img-src')).toEqual(expect.arrayContaining(['http://127.0.0.1:36230']));
  });

  it('UC_XMPP_WS_URLS (behind a proxy) is taken as given', () => {
    expect(readUccSettings({ UC_XMPP_WS_URLS: 'wss://a.example/ws, wss://b.example/ws' }).xmppWsUrls).toEqual(['wss://a.example/ws', 'wss://b.example/ws']);
  });
});
