import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadOrCreateSecret, makeServiceDirs, SECRET_NAMES, serviceDirs, type ServicesConfig } from './layout';
import type { ServiceDefinition } from './manager';
import { janusRequest } from './janus-client';
import { janusInstances, type JanusInstance } from './janus-instances';

const LIB = '/usr/lib/x86_64-linux-gnu/janus';

/**
 * Every plugin and transport Debian ships but ours: the videoroom SFU and the audiobridge (the
 * meetings' phones: server/meetings/audio-bridge.ts) over WebSockets, nothing else.
 */
const OTHER_PLUGINS = ['duktape', 'echotest', 'lua', 'nosip', 'recordplay', 'sip', 'streaming', 'textroom', 'videocall', 'voicemail'];
const OTHER_TRANSPORTS = ['http', 'mqtt', 'nanomsg', 'pfunix', 'rabbitmq'];
const libs = (names: string[]) => names.map((n) => `libjanus_${n}.so`).join(',');

/** A jcfg string: JSON's quoting is a subset of libconfig's. */
const q = (s: string) => JSON.stringify(s);

/** The instance `name` of this configuration (janus2 exists only in a cluster). */
function instanceOf(cfg: ServicesConfig, name: JanusInstance['name']): JanusInstance {
  const found = janusInstances({ ...cfg, cluster: cfg.cluster || name !== 'janus' }).find((i) => i.name === name);
  if (!found) throw new Error(`no Janus instance ${name}`);
  return found;
}

/**
 * Janus 1.1 from its own folder (Debian's /etc/janus listens everywhere, serves plain HTTP and has
 * a well-known admin secret and demo rooms): loopback WebSockets only, the videoroom and audiobridge plugins only,
 * room creation behind the admin_key, which only the API server holds. Each instance of a cluster
 * is one of these with its own folder and ports; they share the runtime folder's secrets, since the
 * one API server creates rooms on both.
 */
function janusService(name: JanusInstance['name']): ServiceDefinition {
  const def: ServiceDefinition = {
    name,
    packages: ['janus'],
    pidFile: (cfg) => path.join(serviceDirs(cfg.runtimeDir, name).run, `${name}.pid`),
    async probe(cfg) {
      const res = await janusRequest(`ws://127.0.0.1:${instanceOf(cfg, name).ws}`, { janus: 'info' }, 2000);
      return res.janus === 'server_info';
    },
    async prepare(cfg: ServicesConfig) {
      const dirs = await makeServiceDirs(cfg.runtimeDir, name);
      const instance = instanceOf(cfg, name);
      const adminSecret = (await loadOrCreateSecret(cfg.runtimeDir, SECRET_NAMES.janusAdmin)).toString('base64url');
      const adminKey = (await loadOrCreateSecret(cfg.runtimeDir, SECRET_NAMES.janusRoomAdmin)).toString('base64url');
      await writeFile(
        path.join(dirs.conf, 'janus.jcfg'),
        `general: {
  configs_folder = ${q(dirs.conf)}
  plugins_folder = ${q(`${LIB}/plugins`)}
  transports_folder = ${q(`${LIB}/transports`)}
  events_folder = ${q(`${LIB}/events`)}
  loggers_folder = ${q(`${LIB}/loggers`)}
  debug_level = 4
  admin_secret = ${q(adminSecret)}
  protected_folders = [ "/bin", "/boot", "/dev", "/etc", "/initrd", "/lib", "/lib32", "/lib64", "/proc", "/sbin", "/sys", "/usr", "/var" ]
}
media: {
  rtp_port_range = "${instance.rtpMin}-${instance.rtpMax}"
}
nat: {
  # Browsers on this machine reach Janus on loopback; no STUN lookups towards the Internet.
  ice_enforce_list = "lo"
}
plugins: {
  disable = ${q(libs(OTHER_PLUGINS))}
}
transports: {
  disable = ${q(libs(OTHER_TRANSPORTS))}
}
events: {
  broadcast = false
}
loggers: {
  disable = "libjanus_jsonlog.so"
}
`,
        { mode: 0o600 },
      );
      await writeFile(
        path.join(dirs.conf, 'janus.transport.websockets.jcfg'),
        `general: {
  json = "indented"
  ws = true
  ws_ip = "127.0.0.1"
  ws_port = ${instance.ws}
  wss = false
}
admin: {
  admin_ws = true
  admin_ws_ip = "127.0.0.1"
  admin_ws_port = ${instance.adminWs}
  admin_wss = false
}
`,
      );
      await writeFile(
        path.join(dirs.conf, 'janus.plugin.videoroom.jcfg'),
        `general: {
  admin_key = ${q(adminKey)}
  lock_rtp_forward = true
}
`,
        { mode: 0o600 },
      );
      // Plain RTP (dial-in phones) on loopback only, within the copy's own ports.
      await writeFile(
        path.join(dirs.conf, 'janus.plugin.audiobridge.jcfg'),
        `general: {
  admin_key = ${q(adminKey)}
  lock_rtp_forward = true
  lock_play_file = true
  rtp_port_range = "${instance.bridgeRtpMin}-${instance.bridgeRtpMax}"
  local_ip = "127.0.0.1"
  events = false
}
`,
        { mode: 0o600 },
      );
      return {
        name,
        command: 'janus',
        args: ['-F', dirs.conf, '-C', path.join(dirs.conf, 'janus.jcfg'), '-o'],
        logFile: path.join(dirs.log, 'janus.log'),
        pidFile: def.pidFile(cfg),
        ready: () => def.probe(cfg),
        ports: [
          { port: instance.ws, proto: 'tcp' },
          { port: instance.adminWs, proto: 'tcp' },
        ],
        readyTimeoutMs: 15_000,
      };
    },
  };
  return def;
}

export const janus = janusService('janus');
/** The second Janus of a cluster: meetings are placed on one or the other (server/meetings/janus-rooms.ts). */
export const janus2 = janusService('janus2');
