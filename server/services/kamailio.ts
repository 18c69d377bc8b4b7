import dgram from 'node:dgram';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadOrCreateSecret, makeServiceDirs, SECRET_NAMES, serviceDirs, type ServicesConfig } from './layout';
import { KAMAILIO2_HOST } from './ports';
import { rtpengineNgPorts } from './rtpengine';
import type { ServiceDefinition } from './manager';
import { ECHO_EXTENSION, MEETING_DIAL_IN } from '../../src/wire/services';
import { tcpOpen } from './proc';
import { ANNOUNCER_PREFIX, announceFiles, GREETING_ONLY_PREFIX } from './voicemail-accounts';

const TEMPLATE = path.join(import.meta.dirname, 'kamailio.cfg.tmpl');

/** The longest echo test call (dial *43): Kamailio ends it then. */
export const ECHO_MAX_SECONDS = 120;

/** How long an extension rings before the callee's default forward (voicemail, usually) takes the call. */
export const RING_TIME_MS = 25_000;

/** The auth_ephemeral secret, as the text Kamailio and the API server both use as the HMAC key. */
export async function sipEphemeralSecret(cfg: ServicesConfig): Promise<string> {
  return (await loadOrCreateSecret(cfg.runtimeDir, SECRET_NAMES.sipEphemeral)).toString('base64url');
}

function gatewayAddress(cfg: ServicesConfig): { host: string; port: number } {
  const [host = '127.0.0.1', port = String(cfg.ports.sipGateway)] = cfg.gateway.split(':');
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || !/^\d+$/.test(port)) throw new Error(`UC_SIP_GATEWAY must be IPv4:port, got ${cfg.gateway}`);
  return { host, port: Number(port) };
}

/** A Kamailio string literal: origins come from the environment, never trusted into the config raw. */
function cfgString(value: string): string {
  if (/["\\\n\r$]/.test(value)) throw new Error(`unsupported character in ${JSON.stringify(value)}`);
  return `"${value}"`;
}

/** What Kamailio sends in `X-UC-Internal` on its calls to the API (and the API expects). */
export async function internalApiSecret(cfg: ServicesConfig): Promise<string> {
  return (await loadOrCreateSecret(cfg.runtimeDir, SECRET_NAMES.internalApi)).toString('base64url');
}

/** A path inside a Kamailio string literal (the runtime folder comes from the environment). */
function cfgPath(value: string): string {
  if (/["\\\n\r$ ]/.test(value)) throw new Error(`unsupported character in ${JSON.stringify(value)}`);
  return value;
}

export type KamailioNode = 1 | 2;

/** The listeners of each Kamailio of a cluster; node 1's are the ones a single Kamailio has. */
export function kamailioNode(cfg: ServicesConfig, node: KamailioNode) {
  const { ports } = cfg;
  const name = node === 1 ? ('kamailio' as const) : ('kamailio2' as const);
  return node === 1 ? { name, host: '127.0.0.1', sipWs: ports.sipWs, sipUdp: ports.sipUdp } : { name, host: KAMAILIO2_HOST, sipWs: ports.sipWs2, sipUdp: ports.sipUdp2 };
}

/** The SIP WebSocket URLs browsers may register on: node 1's, and node 2's in a cluster. */
export const sipWsUrls = (cfg: ServicesConfig): string[] =>
  (cfg.cluster ? [1, 2] : [1]).map((n) => {
    const me = kamailioNode(cfg, n as KamailioNode);
    return `ws://${me.host}:${me.sipWs}/`;
  });

export function renderKamailioCfg(template: string, cfg: ServicesConfig, values: { secret: string; internalSecret: string; runDir: string }, node: KamailioNode = 1): string {
  const gw = gatewayAddress(cfg);
  const originDenied = cfg.origins.length ? cfg.origins.map((o) => `$hdr(Origin) != ${cfgString(o)}`).join(' && ') : '1 == 1';
  const me = kamailioNode(cfg, node);
  const peer = kamailioNode(cfg, node === 1 ? 2 : 1);
  const vars: Record<string, string> = {
    SIP_HOST: me.host,
    PEER_HOST: peer.host,
    PEER_HOST_RE: peer.host.replaceAll('.', '\\.'),
    SIP_WS_PORT: String(me.sipWs),
    SIP_UDP_PORT: String(me.sipUdp),
    PEER_UDP_PORT: String(peer.sipUdp),
    DOMAIN: cfg.domain,
    RUN_DIR: values.runDir,
    SIP_SECRET: values.secret,
    // One set, equal weights: the rtpengine module spreads new calls over both and skips one that
    // does not answer (see CLUSTER in kamailio.cfg.tmpl).
    RTPENGINE_SOCKS: rtpengineNgPorts(cfg)
      .map((p) => `udp:127.0.0.1:${p}${cfg.cluster ? '=1' : ''}`)
      .join(' '),
    GATEWAY_HOST: gw.host,
    GATEWAY_PORT: String(gw.port),
    ORIGIN_DENIED: originDenied,
    API_URL: cfg.apiUrl,
    INTERNAL_SECRET: values.internalSecret,
    VOICEMAIL_PORT: String(cfg.ports.voicemailSip),
    RING_TIME_MS: String(RING_TIME_MS),
    RING_TIME_S: String(RING_TIME_MS / 1000),
    GREETING_PREFIX: GREETING_ONLY_PREFIX,
    ANNOUNCER_PREFIX,
    ANNOUNCE_HOLD_WAV: cfgPath(announceFiles(cfg).hold),
    ANNOUNCE_DIR: cfgPath(announceFiles(cfg).dir),
    ECHO_EXTENSION,
    ECHO_PORT: String(cfg.ports.echoSip),
    DIAL_IN_PREFIX: `${MEETING_DIAL_IN}*`,
    DIAL_IN_PREFIX_LEN: String(MEETING_DIAL_IN.length + 1),
    DIAL_IN_PORT: String(cfg.ports.dialInSip),
    CLICKDIAL_PORT: String(cfg.ports.clickDialSip),
    ECHO_MAX_SECONDS: String(ECHO_MAX_SECONDS),
  };
  // Node-to-node parts of the config (registrations shared over DMQ, calls handed to the node that
  // holds the callee's WebSocket) exist only in a cluster: a single Kamailio runs what it always did.
  const withCluster = cfg.cluster ? template.replace(/^#!KAMAILIO\n/, '#!KAMAILIO\n#!define WITH_CLUSTER\n') : template;
  const out = withCluster.replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`kamailio.cfg.tmpl: no value for {{${name}}}`);
    return v;
  });
  return out;
}

/**
 * An OPTIONS over UDP answered 200: the SIP core is up, not just the socket. To the proxy itself by
 * default; `user` addresses one of a phone's accounts (a phone answers only for its own).
 */
export function sipOptionsPing(port: number, timeoutMs = 500, user?: string, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    const callId = randomBytes(8).toString('hex');
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('message', (msg) => {
      const text = msg.toString();
      if (text.includes(callId)) done(text.startsWith('SIP/2.0 200'));
    });
    socket.on('error', () => done(false));
    socket.bind(0, '127.0.0.1', () => {
      const local = socket.address().port;
      const target = `sip:${user ? `${user}@` : ''}${host}:${port}`;
      const msg = [
        `OPTIONS ${target} SIP/2.0`,
        `Via: SIP/2.0/UDP 127.0.0.1:${local};branch=z9hG4bK${callId};rport`,
        'Max-Forwards: 5',
        `From: <sip:probe@127.0.0.1>;tag=${callId}`,
        `To: <${target}>`,
        `Call-ID: ${callId}`,
        'CSeq: 1 OPTIONS',
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n');
      socket.send(msg, port, host);
    });
  });
}

function kamailioDefinition(node: KamailioNode): ServiceDefinition {
  const def: ServiceDefinition = {
    name: node === 1 ? 'kamailio' : 'kamailio2',
    packages: ['kamailio', 'kamailio-websocket-modules', 'kamailio-extra-modules', 'kamailio-autheph-modules', 'kamailio-utils-modules'],
    pidFile: (cfg) => path.join(serviceDirs(cfg.runtimeDir, def.name).run, 'kamailio.pid'),
    async probe(cfg) {
      const me = kamailioNode(cfg, node);
      return (await tcpOpen(me.sipWs, me.host)) && (await sipOptionsPing(me.sipUdp, 500, undefined, me.host));
    },
    async prepare(cfg: ServicesConfig) {
      const dirs = await makeServiceDirs(cfg.runtimeDir, def.name);
      const me = kamailioNode(cfg, node);
      const file = path.join(dirs.conf, 'kamailio.cfg');
      const text = renderKamailioCfg(await readFile(TEMPLATE, 'utf8'), cfg, { secret: await sipEphemeralSecret(cfg), internalSecret: await internalApiSecret(cfg), runDir: dirs.run }, node);
      await writeFile(file, text, { mode: 0o600 });
      return {
        name: def.name,
        command: 'kamailio',
        args: ['-f', file, '-DD', '-E', '-Y', dirs.run, '-P', path.join(dirs.run, 'kamailio.self.pid'), '-m', '64', '-M', '8'],
        cwd: dirs.run,
        logFile: path.join(dirs.log, 'kamailio.log'),
        pidFile: def.pidFile(cfg),
        ready: () => def.probe(cfg),
        ports: [
          { port: me.sipWs, proto: 'tcp', host: me.host },
          { port: me.sipUdp, proto: 'udp', host: me.host },
        ],
        readyTimeoutMs: 20_000,
      };
    },
  };
  return def;
}

export const kamailio = kamailioDefinition(1);
/** The second Kamailio of a cluster: registrations shared with the first over DMQ. */
export const kamailio2 = kamailioDefinition(2);
