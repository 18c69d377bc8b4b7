import dgram from 'node:dgram';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadOrCreateSecret, makeServiceDirs, SECRET_NAMES, serviceDirs, type ServicesConfig } from './layout';
import type { ServiceDefinition } from './manager';
import { ECHO_EXTENSION } from '../../src/wire/services';
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

export function renderKamailioCfg(template: string, cfg: ServicesConfig, values: { secret: string; internalSecret: string; runDir: string }): string {
  const gw = gatewayAddress(cfg);
  const originDenied = cfg.origins.length ? cfg.origins.map((o) => `$hdr(Origin) != ${cfgString(o)}`).join(' && ') : '1 == 1';
  const vars: Record<string, string> = {
    SIP_WS_PORT: String(cfg.ports.sipWs),
    SIP_UDP_PORT: String(cfg.ports.sipUdp),
    DOMAIN: cfg.domain,
    RUN_DIR: values.runDir,
    SIP_SECRET: values.secret,
    RTPENGINE_NG_PORT: String(cfg.ports.rtpengineNg),
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
    CLICKDIAL_PORT: String(cfg.ports.clickDialSip),
    ECHO_MAX_SECONDS: String(ECHO_MAX_SECONDS),
  };
  const out = template.replace(/\{\{([A-Z_]+)\}\}/g, (_, name: string) => {
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
export function sipOptionsPing(port: number, timeoutMs = 500, user?: string): Promise<boolean> {
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
      const target = `sip:${user ? `${user}@` : ''}127.0.0.1:${port}`;
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
      socket.send(msg, port, '127.0.0.1');
    });
  });
}

export const kamailio: ServiceDefinition = {
  name: 'kamailio',
  packages: ['kamailio', 'kamailio-websocket-modules', 'kamailio-extra-modules', 'kamailio-autheph-modules', 'kamailio-utils-modules'],
  pidFile: (cfg) => path.join(serviceDirs(cfg.runtimeDir, 'kamailio').run, 'kamailio.pid'),
  async probe(cfg) {
    return (await tcpOpen(cfg.ports.sipWs)) && (await sipOptionsPing(cfg.ports.sipUdp));
  },
  async prepare(cfg: ServicesConfig) {
    const dirs = await makeServiceDirs(cfg.runtimeDir, 'kamailio');
    const file = path.join(dirs.conf, 'kamailio.cfg');
    const text = renderKamailioCfg(await readFile(TEMPLATE, 'utf8'), cfg, { secret: await sipEphemeralSecret(cfg), internalSecret: await internalApiSecret(cfg), runDir: dirs.run });
    await writeFile(file, text, { mode: 0o600 });
    return {
      name: 'kamailio',
      command: 'kamailio',
      args: ['-f', file, '-DD', '-E', '-Y', dirs.run, '-P', path.join(dirs.run, 'kamailio.self.pid'), '-m', '64', '-M', '8'],
      cwd: dirs.run,
      logFile: path.join(dirs.log, 'kamailio.log'),
      pidFile: kamailio.pidFile(cfg),
      ready: () => kamailio.probe(cfg),
      ports: [{ port: cfg.ports.sipWs, proto: 'tcp' }, { port: cfg.ports.sipUdp, proto: 'udp' }],
      readyTimeoutMs: 20_000,
    };
  },
};
