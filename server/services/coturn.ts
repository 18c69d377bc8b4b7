import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadOrCreateSecret, makeServiceDirs, SECRET_NAMES, serviceDirs, type ServicesConfig } from './layout';
import type { ServiceDefinition } from './manager';

const STUN_MAGIC_COOKIE = 0x2112a442;

/** A STUN Binding request over UDP (RFC 8489): true when a Binding success response comes back. */
export function stunBinding(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    const id = randomBytes(12);
    const request = Buffer.alloc(20);
    request.writeUInt16BE(0x0001, 0);
    request.writeUInt16BE(0, 2);
    request.writeUInt32BE(STUN_MAGIC_COOKIE, 4);
    id.copy(request, 8);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('error', () => done(false));
    socket.on('message', (msg) => {
      if (msg.length >= 20 && msg.readUInt16BE(0) === 0x0101 && msg.subarray(8, 20).equals(id)) done(true);
    });
    socket.send(request, port, host);
  });
}

/** The TURN realm; credentials are checked against it. */
export const turnRealm = (cfg: Pick<ServicesConfig, 'domain'>) => cfg.domain;

/**
 * coturn from its own config file (Debian's /etc/turnserver.conf ignored): loopback only, no TLS
 * listeners (no certificate here), and the TURN REST API scheme: no user database, a username is
 * `expiry:userId` and its password the HMAC of it under a secret only coturn and the API server know.
 */
export const coturn: ServiceDefinition = {
  name: 'coturn',
  packages: ['coturn'],
  pidFile: (cfg) => path.join(serviceDirs(cfg.runtimeDir, 'coturn').run, 'coturn.pid'),
  probe: (cfg) => stunBinding(cfg.ports.turn, undefined, 300),
  async prepare(cfg: ServicesConfig) {
    const dirs = await makeServiceDirs(cfg.runtimeDir, 'coturn');
    const { ports } = cfg;
    const secret = (await loadOrCreateSecret(cfg.runtimeDir, SECRET_NAMES.turn)).toString('base64url');
    const conf = path.join(dirs.conf, 'turnserver.conf');
    await writeFile(
      conf,
      [
        'listening-ip=127.0.0.1',
        'relay-ip=127.0.0.1',
        `listening-port=${ports.turn}`,
        // Without a second address there is no RFC 5780 alternate listener; say so rather than let coturn pick port+1.
        'no-rfc5780',
        `min-port=${ports.turnRelayMin}`,
        `max-port=${ports.turnRelayMax}`,
        'no-tls',
        'no-dtls',
        'no-cli',
        'no-multicast-peers',
        // Every browser and media server of this product is on this machine: relaying to loopback is the point.
        'allow-loopback-peers',
        'fingerprint',
        'use-auth-secret',
        `static-auth-secret=${secret}`,
        `realm=${turnRealm(cfg)}`,
        `userdb=${path.join(dirs.data, 'turndb')}`,
        `pidfile=${path.join(dirs.run, 'turnserver.self.pid')}`,
        'log-file=stdout',
        'simple-log',
        'no-software-attribute',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    return {
      name: 'coturn',
      command: 'turnserver',
      args: ['-c', conf],
      logFile: path.join(dirs.log, 'coturn.log'),
      pidFile: coturn.pidFile(cfg),
      ready: () => coturn.probe(cfg),
      ports: [
        { port: ports.turn, proto: 'udp' },
        { port: ports.turn, proto: 'tcp' },
      ],
      readyTimeoutMs: 15_000,
    };
  },
};
