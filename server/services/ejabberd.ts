import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, chmod, chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadOrCreateSecret, makeServiceDirs, mucHost, SECRET_NAMES, serviceDirs, type ServicesConfig } from './layout';
import type { ServiceDefinition } from './manager';
import { ejabberdPgDatabase, preparePgDatabase } from './ejabberd-pg';
import { assertClusterStorage, ejabberdNodes, nodeUploadUrl, type EjabberdNode } from './ejabberd-nodes';
import { tcpOpen } from './proc';
import { xmppNodeApi } from './xmpp-api';
import { ATTACHMENT_MAX_TOTAL_BYTES } from '../../src/wire/media';

const SYSTEM_EJABBERDCTL = '/usr/sbin/ejabberdctl';
/** Our ejabberd module: SQLite pragmas ejabberd has no option for (see the file). */
const SQLITE_MODULE_SOURCE = path.join(import.meta.dirname, 'mod_uc_sqlite.erl');
/** Our epmd module: two nodes on one loopback address without epmd (see the file). */
const EPMD_MODULE_SOURCE = path.join(import.meta.dirname, 'uc_epmd.erl');

/**
 * The account ejabberd runs as when we are root: Debian's package creates `ejabberd` (its script
 * would `su` to it); `nobody` only where that account is missing. Its folder is outside the clone
 * (see runsOutsideRuntime), so the clone may live anywhere, root's 0700 home included.
 */
function runAs(): { uid: number; gid: number } {
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((f) => f[0] === 'ejabberd');
  return entry ? { uid: Number(entry[2]), gid: Number(entry[3]) } : { uid: 65534, gid: 65534 };
}

export { mucHost };

/** The XEP-0363 upload service's JID (clients ask it for a slot). */
export const uploadHost = (cfg: Pick<ServicesConfig, 'domain'>) => `upload.${cfg.domain}`;

/** The XMPP login key as ejabberd wants it: a JWK (PEM is rejected). Same bytes the API signs with. */
export async function xmppJwtSecret(cfg: ServicesConfig): Promise<Buffer> {
  return loadOrCreateSecret(cfg.runtimeDir, SECRET_NAMES.xmppJwt);
}

function yamlList(items: string[]): string {
  return `[${items.map((i) => JSON.stringify(i)).join(', ')}]`;
}

function storageConfig(cfg: ServicesConfig, dataDir: string): string {
  if (!cfg.databaseUrl) {
    return [
      'default_db: sql',
      'sql_type: sqlite',
      `sql_database: ${JSON.stringify(path.join(dataDir, 'ejabberd.db'))}`,
    ].join('\n');
  }
  const db = ejabberdPgDatabase(cfg.databaseUrl);
  return [
    'default_db: sql',
    'sql_type: pgsql',
    `sql_server: ${JSON.stringify(db.host)}`,
    `sql_port: ${db.port}`,
    `sql_database: ${JSON.stringify(db.database)}`,
    `sql_username: ${JSON.stringify(db.user)}`,
    `sql_password: ${JSON.stringify(db.password)}`,
  ].join('\n');
}

/**
 * ejabberd.yml: loopback listeners only, JWT login (accounts exist in SQL so that offline storage
 * and MucSub know them), MUC with MucSub and MAM, stream management, provisioning API for loopback.
 */
export function ejabberdYaml(cfg: ServicesConfig, files: { jwk: string; dataDir: string; uploadDir: string }, node: EjabberdNode = ejabberdNodes(cfg)[0]!): string {
  const { domain } = cfg;
  return `# Written by server/services/ejabberd.ts on every start: edit that file, not this one.
hosts: [${JSON.stringify(domain)}]
loglevel: info
log_rotate_count: 1
log_rotate_size: 10485760
hide_sensitive_log_data: true
certfiles: []

${storageConfig(cfg, files.dataDir)}
auth_method: [jwt, sql]
auth_password_format: scram
jwt_key: ${JSON.stringify(files.jwk)}
jwt_jid_field: jid

# The browser's page origins (scheme, host, port) allowed to open /ws.
websocket_origin: ${yamlList(cfg.origins)}
websocket_ping_interval: 60
websocket_timeout: 300

listen:
  - port: ${node.c2s}
    ip: "127.0.0.1"
    module: ejabberd_c2s
    max_stanza_size: 262144
    shaper: c2s_shaper
    access: c2s
    starttls: false
  - port: ${node.http}
    ip: "127.0.0.1"
    module: ejabberd_http
    request_handlers:
      /ws: ejabberd_http_ws
      /upload: mod_http_upload
  - port: ${node.api}
    ip: "127.0.0.1"
    module: ejabberd_http
    request_handlers:
      /api: mod_http_api

acl:
  local:
    user_regexp: ""
  loopback:
    ip:
      - 127.0.0.0/8

access_rules:
  local:
    allow: local
  c2s:
    allow: all
  announce:
    deny: all
  configure:
    deny: all
  muc_create:
    allow: local
  register:
    deny: all

api_permissions:
  "provisioning from the API server on loopback":
    from:
      - mod_http_api
    who:
      ip: 127.0.0.1/8
    what: "*"

shaper:
  normal:
    rate: 100000
    burst_size: 200000

shaper_rules:
  max_user_sessions: 20
  max_user_offline_messages: 5000
  c2s_shaper: normal

modules:
  mod_admin_extra: {}
  mod_blocking: {}
  mod_caps: {}
  mod_carboncopy: {}
  mod_client_state: {}
  mod_disco: {}
  mod_http_upload:
    host: ${JSON.stringify(uploadHost(cfg))}
    docroot: ${JSON.stringify(files.uploadDir)}
    put_url: ${JSON.stringify(nodeUploadUrl(cfg, node))}
    max_size: ${ATTACHMENT_MAX_TOTAL_BYTES}
    thumbnail: false
    # Browsers PUT from the app's page (another origin): the preflight and the PUT need CORS. The
    # headers are static, so any origin: a slot's URL holds a 40-character secret and takes one
    # upload of the announced size; no cookie or credential is involved.
    custom_headers:
      "Access-Control-Allow-Origin": "*"
      "Access-Control-Allow-Methods": "OPTIONS, HEAD, GET, PUT"
      "Access-Control-Allow-Headers": "Content-Type"
      "X-Content-Type-Options": "nosniff"
      # A file opened on its own (a picture drawn as SVG, say) runs nothing on ejabberd's origin.
      "Content-Security-Policy": "default-src 'none'; media-src 'self'; img-src 'self'; style-src 'unsafe-inline'; sandbox"
  mod_last: {}
  mod_mam:
    assume_mam_usage: true
    default: always
  mod_muc:
    host: ${JSON.stringify(mucHost(cfg))}
    access: all
    access_create: muc_create
    access_persistent: muc_create
    access_mam: all
    history_size: 0
    max_users: 500
    default_room_options:
      mam: true
      allow_subscription: true
      persistent: true
      members_only: true
      public: false
      public_list: false
  mod_muc_admin: {}
  mod_offline:
    access_max_user_messages: max_user_offline_messages
  mod_ping: {}
  mod_privacy: {}
  mod_private: {}${cfg.databaseUrl ? '' : '\n  mod_uc_sqlite: {}'}
  mod_roster:
    versioning: true
  mod_stream_mgmt:
    resend_on_timeout: if_offline
  mod_vcard: {}
  mod_version:
    show_os: false
`;
}

/**
 * Mnesia's folder. It must exist before the script runs: our copy execs its commands (see
 * ejabberdctlCopy), so the script's own `exec_cmd mkdir -p $SPOOL_DIR` would replace the script with
 * mkdir and "start" nothing, exit code 0.
 */
const spoolDir = (dirs: ReturnType<typeof serviceDirs>) => path.join(dirs.data, 'spool');
/** Chat files (XEP-0363), kept with ejabberd's other data. */
const uploadDir = (dirs: ReturnType<typeof serviceDirs>) => path.join(dirs.data, 'upload');

/** ejabberdctl.cfg: everything inside our folder, distribution on loopback without epmd. */
function ejabberdctlCfg(node: EjabberdNode, dirs: ReturnType<typeof serviceDirs>): string {
  return [
    `ERLANG_NODE=${node.erlangNode}`,
    'INET_DIST_INTERFACE=127.0.0.1',
    'ERL_EPMD_ADDRESS=127.0.0.1',
    `ERL_DIST_PORT=${node.dist}`,
    `EJABBERD_CONFIG_PATH=${path.join(dirs.conf, 'ejabberd.yml')}`,
    `SPOOL_DIR=${spoolDir(dirs)}`,
    `LOGS_DIR=${dirs.log}`,
    `EJABBERD_PID_PATH=${path.join(dirs.run, 'ejabberd.self.pid')}`,
    'EJABBERD_BYPASS_WARNINGS=true',
    'ERL_OPTIONS="-env ERL_CRASH_DUMP_BYTES 0"',
    '',
  ].join('\n');
}

/**
 * Debian's script, made ours: it must not `su` to the `ejabberd` account (we pick the user), and it
 * must exec the VM so that the PID we record is the VM's (a SIGKILL then leaves nothing behind).
 */
async function ejabberdctlCopy(): Promise<string> {
  const src = await readFile(SYSTEM_EJABBERDCTL, 'utf8');
  const out = src.replace(/^INSTALLUSER=.*$/m, 'INSTALLUSER=').replace('as_current_user) "$@" ;;', 'as_current_user) exec "$@" ;;');
  if (out.includes('INSTALLUSER=ejabberd') || !out.includes('exec "$@"')) throw new Error(`${SYSTEM_EJABBERDCTL} changed shape; update server/services/ejabberd.ts`);
  return out;
}

const isRoot = () => process.getuid?.() === 0;

/**
 * Compiles our modules into the config folder and puts that on the VM's code path (vm.args, which
 * Debian's script passes as -args_file, to the node and to every ejabberdctl command; it resets
 * ERL_LIBS itself). About 0.2 s each with erlc, which comes with ejabberd (erlang-base). In a
 * cluster the nodes find each other's distribution port through uc_epmd and its table.
 */
async function buildModules(cfg: ServicesConfig, dirs: ReturnType<typeof serviceDirs>): Promise<string[]> {
  const ebin = path.join(dirs.conf, 'ebin');
  await mkdir(ebin, { recursive: true });
  await promisify(execFile)('erlc', ['-o', ebin, SQLITE_MODULE_SOURCE, EPMD_MODULE_SOURCE]);
  const vmArgs = path.join(dirs.conf, 'vm.args');
  const lines = [`-pa ${JSON.stringify(ebin)}`];
  if (cfg.cluster) lines.push('-epmd_module uc_epmd', ...ejabberdNodes(cfg).map((n) => `-uc_dist_port ${n.alive} ${n.dist}`));
  await writeFile(vmArgs, `${lines.join('\n')}\n`, { mode: 0o600 });
  return [ebin, path.join(ebin, 'mod_uc_sqlite.beam'), path.join(ebin, 'uc_epmd.beam'), vmArgs];
}

/** Gives the service account its own folder (and nothing above it: see layout's linkExternalServiceDir). */
async function handOver(dirs: ReturnType<typeof serviceDirs>, files: string[]): Promise<void> {
  if (!isRoot()) return;
  const { uid, gid } = runAs();
  for (const p of [dirs.root, dirs.conf, dirs.run, dirs.log, dirs.data, spoolDir(dirs), uploadDir(dirs), ...files]) await chown(p, uid, gid);
  await chmod(dirs.root, 0o700);
}

/** Our ejabberdctl on this node's config folder, as the service account when we are root (the node itself, join_cluster). */
function ctlCommand(dirs: ReturnType<typeof serviceDirs>, args: string[]): { command: string; args: string[] } {
  const ctl = path.join(dirs.conf, 'ejabberdctl');
  const ctlArgs = ['--config-dir', dirs.conf, ...args];
  return isRoot() ? { command: 'setpriv', args: [`--reuid=${runAs().uid}`, `--regid=${runAs().gid}`, '--clear-groups', ctl, ...ctlArgs] } : { command: ctl, args: ctlArgs };
}

const ctlEnv = (dirs: ReturnType<typeof serviceDirs>) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dirs.root, LANG: 'C.UTF-8' });

/** The nodes this node's Mnesia is clustered with, itself included (ejabberd's list_cluster). */
export async function clusterOf(node: EjabberdNode): Promise<string[]> {
  const nodes = await xmppNodeApi(node.api).call<string[]>('list_cluster', {}, 2000);
  return Array.isArray(nodes) ? nodes : [];
}

/**
 * The second node joins the first's Mnesia cluster once (ejabberd's join_cluster: it restarts its
 * own ejabberd application with a copy of the first node's schema); from then on its Mnesia folder
 * says where the cluster is, and a restart (even after SIGKILL) finds it by itself.
 */
async function ensureJoined(cfg: ServicesConfig, node: EjabberdNode, dirs: ReturnType<typeof serviceDirs>): Promise<boolean> {
  const first = ejabberdNodes(cfg)[0]!;
  if ((await clusterOf(node)).includes(first.erlangNode)) return true;
  const cmd = ctlCommand(dirs, ['join_cluster', first.erlangNode]);
  try {
    await promisify(execFile)(cmd.command, cmd.args, { env: ctlEnv(dirs), cwd: dirs.root, timeout: 60_000 });
  } catch (err) {
    const out = err as { stdout?: string; stderr?: string; message: string };
    // The start's readiness loop retries; this line is what its failure message (the log's tail) shows.
    await appendFile(path.join(dirs.log, 'console.log'), `uc: join_cluster ${first.erlangNode} failed: ${(out.stdout || out.stderr || out.message).trim().slice(0, 500)}\n`).catch(() => undefined);
    throw new Error(`${node.service}: could not join ${first.erlangNode} (is ejabberd, the first node, running?): ${(out.stdout || out.stderr || out.message).trim().slice(0, 500)}`);
  }
  return false;
}

/** Node 1 (`ejabberd`) or, in a cluster, node 2 (`ejabberd2`): one definition, parameterised by node. */
function ejabberdService(index: 0 | 1): ServiceDefinition {
  const nodeOf = (cfg: ServicesConfig) => ejabberdNodes({ ...cfg, cluster: true })[index]!;
  const name = index === 0 ? 'ejabberd' : 'ejabberd2';
  const def: ServiceDefinition = {
    name,
    packages: ['ejabberd', 'erlang-p1-sqlite3', 'erlang-p1-pgsql'],
    pidFile: (cfg) => path.join(serviceDirs(cfg.runtimeDir, name).run, `${name}.pid`),
    async probe(cfg) {
      const node = nodeOf(cfg);
      if (!(await tcpOpen(node.c2s)) || !(await tcpOpen(node.http))) return false;
      const status = await xmppNodeApi(node.api).call<string>('status', {}, 1000);
      return typeof status === 'string' && status.includes('is started');
    },
    async prepare(cfg) {
      assertClusterStorage(cfg);
      const node = nodeOf(cfg);
      const dirs = await makeServiceDirs(cfg.runtimeDir, name);
      await mkdir(spoolDir(dirs), { recursive: true });
      await mkdir(uploadDir(dirs), { recursive: true });
      if (cfg.databaseUrl && index === 0) await preparePgDatabase(cfg.databaseUrl);
      const jwk = path.join(dirs.conf, 'xmpp-jwt.jwk');
      const secret = await xmppJwtSecret(cfg);
      await writeFile(jwk, JSON.stringify({ kty: 'oct', alg: 'HS256', k: secret.toString('base64url') }), { mode: 0o600 });
      const files = { jwk, dataDir: dirs.data, uploadDir: uploadDir(serviceDirs(cfg.runtimeDir, 'ejabberd')) };
      await writeFile(path.join(dirs.conf, 'ejabberd.yml'), ejabberdYaml(cfg, files, node), { mode: 0o600 });
      await writeFile(path.join(dirs.conf, 'ejabberdctl.cfg'), ejabberdctlCfg(node, dirs), { mode: 0o600 });
      const moduleFiles = await buildModules(cfg, dirs);
      const ctl = path.join(dirs.conf, 'ejabberdctl');
      await writeFile(ctl, await ejabberdctlCopy(), { mode: 0o755 });
      // One cookie for both nodes, made once under runtime/secrets: the nodes of a cluster must share it.
      const cookie = path.join(dirs.root, '.erlang.cookie');
      await writeFile(cookie, (await loadOrCreateSecret(cfg.runtimeDir, 'erlang.cookie', 24)).toString('hex').toUpperCase(), { mode: 0o400 });
      await handOver(dirs, [jwk, path.join(dirs.conf, 'ejabberd.yml'), path.join(dirs.conf, 'ejabberdctl.cfg'), cookie, ...moduleFiles]);

      let joining: Promise<boolean> | null = null;
      return {
        name,
        ...ctlCommand(dirs, ['foreground']),
        env: ctlEnv(dirs),
        cwd: dirs.root,
        logFile: path.join(dirs.log, 'console.log'),
        pidFile: def.pidFile(cfg),
        async ready() {
          if (!(await def.probe(cfg))) return false;
          if (index === 0) return true;
          // One join at a time: the probe is polled while join_cluster restarts the node.
          joining ??= ensureJoined(cfg, node, dirs).finally(() => (joining = null));
          return joining;
        },
        ports: [node.c2s, node.http, node.api, node.dist].map((port) => ({ port, proto: 'tcp' as const })),
        readyTimeoutMs: 60_000,
      };
    },
  };
  return def;
}

export const ejabberd = ejabberdService(0);
export const ejabberd2 = ejabberdService(1);
