import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { serviceDirs, type ServiceName, type ServicesConfig } from '../../server/services/layout';
import { servicesStatus, startServices } from '../../server/services/manager';
import { isAlive, readPid } from '../../server/services/proc';
import { sipOptionsPing } from '../../server/services/kamailio';
import { xmppApi } from '../../server/services/xmpp-api';
import { janusRequest } from '../../server/services/janus-client';
import { stunBinding } from '../../server/services/coturn';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');

/** The project's own script, as an operator would run it (`npm run services -- start <name>`). */
async function servicesCli(cfg: ServicesConfig, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/services/cli.ts', ...args], {
    cwd: root,
    env: {
      ...process.env,
      UC_RUNTIME_DIR: cfg.runtimeDir,
      UC_PORT_BASE: String(cfg.ports.base),
      UC_ORIGINS: cfg.origins.join(','),
      UC_SIP_GATEWAY: cfg.gateway,
      // Kamailio restarted here must keep asking the test API server, not the product's port: the
      // call tests that run after this file depend on it.
      UC_API_PORT: new URL(cfg.apiUrl).port,
    },
    timeout: 90_000,
  });
  return stdout;
}

const pidFile = (cfg: ServicesConfig, name: ServiceName) => path.join(serviceDirs(cfg.runtimeDir, name).run, `${name}.pid`);

/** SIGKILL, as the OOM killer or a crash would: no chance to clean up PID files, sockets or children. */
async function killHard(cfg: ServicesConfig, name: ServiceName): Promise<number> {
  const pid = await readPid(pidFile(cfg, name));
  expect(pid, `${name} has a PID file`).toBeTruthy();
  process.kill(pid!, 'SIGKILL');
  await expect.poll(() => isAlive(pid!), { timeout: 10_000 }).toBe(false);
  return pid!;
}

/** A WebSocket handshake with the SIP subprotocol from an allowed page origin: what a browser does first. */
function sipWebSocketOpens(cfg: ServicesConfig): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${cfg.ports.sipWs}/`, 'sip', { origin: cfg.origins[0] });
    const done = (ok: boolean) => {
      ws.terminate();
      resolve(ok);
    };
    ws.once('open', () => done(ws.protocol === 'sip'));
    ws.once('error', () => done(false));
    ws.once('unexpected-response', () => done(false));
  });
}

describe('a server killed with SIGKILL comes back through the project script, with no manual clean-up', () => {
  const cfg = inject('servicesConfig');

  it('ejabberd: restarted, answering, and its accounts survived', async () => {
    const api = xmppApi(cfg);
    const user = `restart${Date.now().toString(36)}`;
    await api.call('register', { user, host: cfg.domain, password: 'not-used-logins-are-jwt' });

    const oldPid = await killHard(cfg, 'ejabberd');
    expect((await servicesStatus(cfg, ['ejabberd']))[0]).toMatchObject({ pid: null, ready: false });

    const out = await servicesCli(cfg, 'start', 'ejabberd');
    expect(out).toMatch(/ejabberd ready/);
    const status = (await servicesStatus(cfg, ['ejabberd']))[0]!;
    expect(status.ready).toBe(true);
    expect(status.pid).not.toBe(oldPid);
    // SQL storage (SQLite) outlives the VM: the account registered before the kill is still there.
    expect(await api.call<string[]>('registered_users', { host: cfg.domain })).toContain(user);
  });

  it('Kamailio: restarted, the dead workers are gone, SIP/UDP and SIP over WebSocket answer', async () => {
    const oldPid = await killHard(cfg, 'kamailio');
    // Its workers were in the process group we started; the restart reaps them so the ports are free.
    const out = await servicesCli(cfg, 'start', 'kamailio');
    expect(out).toMatch(/kamailio ready/);
    const status = (await servicesStatus(cfg, ['kamailio']))[0]!;
    expect(status.ready).toBe(true);
    expect(status.pid).not.toBe(oldPid);
    expect(() => process.kill(-oldPid, 0)).toThrow();
    expect(await sipOptionsPing(cfg.ports.sipUdp, 2000)).toBe(true);
    expect(await sipWebSocketOpens(cfg)).toBe(true);
  });

  it('Janus and coturn: restarted, answering on their ports (Janus WebSocket API, STUN over UDP)', async () => {
    for (const name of ['janus', 'coturn'] as const) {
      const oldPid = await killHard(cfg, name);
      expect((await servicesStatus(cfg, [name]))[0]).toMatchObject({ pid: null, ready: false });
      expect(await servicesCli(cfg, 'start', name)).toMatch(new RegExp(`${name} ready`));
      const status = (await servicesStatus(cfg, [name]))[0]!;
      expect(status.ready).toBe(true);
      expect(status.pid).not.toBe(oldPid);
    }
    expect((await janusRequest(`ws://127.0.0.1:${cfg.ports.janusWs}`, { janus: 'info' })).janus).toBe('server_info');
    expect(await stunBinding(cfg.ports.turn)).toBe(true);
  });

  it('status reports every server running by PID and answering', async () => {
    const out = await servicesCli(cfg, 'status');
    for (const name of ['ejabberd', 'kamailio', 'rtpengine', 'janus', 'coturn']) expect(out).toMatch(new RegExp(`${name}\\s+running \\(PID \\d+\\), ready`));
  });
});

describe('a start that fails part-way', () => {
  const cfg = inject('servicesConfig');

  it('stops the servers it had already started, so none is left running unowned', async () => {
    // Its own folder and ports: Kamailio's SIP ports are taken (by this run's Kamailio), rtpengine's are free.
    const clash: ServicesConfig = { ...cfg, runtimeDir: `${cfg.runtimeDir}-clash`, ports: { ...cfg.ports, rtpengineNg: cfg.ports.rtpengineNg + 5, rtpMin: cfg.ports.rtpMin + 250, rtpMax: cfg.ports.rtpMax } };
    await expect(startServices(clash, ['rtpengine', 'kamailio'])).rejects.toThrow(/kamailio: 127.0.0.1:\d+\/(tcp|udp) is already in use/);
    const after = await servicesStatus(clash, ['rtpengine', 'kamailio']);
    expect(after.map((s) => s.pid)).toEqual([null, null]);
    // The real ones were not touched.
    expect((await servicesStatus(cfg, ['kamailio']))[0]!.ready).toBe(true);
  });
});
