import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chmod, cp, link, lstat, mkdir, readFile, readlink, rename, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { servicePorts, type ServicePorts } from './ports';

export const SERVICE_NAMES = ['rtpengine', 'rtpengine2', 'kamailio', 'kamailio2', 'voicemail', 'ejabberd', 'ejabberd2', 'echo', 'clickdial', 'janus', 'janus2', 'coturn'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * The second node of each clustered server (issue 25's two-node topology): started only when the
 * configuration says `cluster` (UC_CLUSTER=1, which also needs DATABASE_URL: the nodes share it).
 */
export const CLUSTER_ONLY_SERVICES: ReadonlySet<ServiceName> = new Set(['rtpengine2', 'kamailio2', 'ejabberd2', 'janus2']);

/** XMPP and SIP domain of the demo organisation. */
export const UC_DOMAIN = 'uc.local';

/** Everything a service needs to be configured: shared by the service scripts and the API server. */
export interface ServicesConfig {
  runtimeDir: string;
  ports: ServicePorts;
  domain: string;
  /** Exact page origins allowed to open the WebSocket endpoints (scheme://host:port). */
  origins: string[];
  /** host:port of the gateway for external numbers (plain SIP over UDP). */
  gateway: string;
  /** When set, ejabberd keeps its data in PostgreSQL (its own database next to this one). */
  databaseUrl?: string;
  /** The API server as Kamailio reaches it (call routing policy, call events): loopback. */
  apiUrl: string;
  /**
   * Where browsers PUT and GET chat files (ejabberd's XEP-0363 upload on its WebSocket listener).
   * ejabberd finds the upload service by this URL's host and path, so requests must use this host.
   */
  uploadUrl: string;
  /** Two nodes of each clustered server (CLUSTER_ONLY_SERVICES) instead of one. */
  cluster: boolean;
}

/** Host of the group-chat rooms (ejabberd's mod_muc). */
export const mucHost = (cfg: Pick<ServicesConfig, 'domain'>) => `conference.${cfg.domain}`;

export interface ServiceDirs {
  root: string;
  conf: string;
  run: string;
  log: string;
  data: string;
}

/**
 * Services that drop root's privileges and run as a system account of their own. Such an account
 * cannot be trusted to reach the clone: root's home (where a root user clones by default) and any
 * mkdtemp folder are 0700. Their whole folder lives in a state folder outside the clone instead,
 * never by loosening the modes of the user's own folders.
 */
const OWN_ACCOUNT_SERVICES: ReadonlySet<ServiceName> = new Set(['ejabberd', 'ejabberd2']);

/** Where the state folders of separately-run services live (root only); UC_SERVICE_STATE_DIR overrides. */
export const serviceStateBase = () => process.env.UC_SERVICE_STATE_DIR || '/var/lib/uc-client';

const isRoot = () => process.getuid?.() === 0;

/**
 * This runtime folder's own folder under the state base: one per runtime folder (product, each test
 * suite, each bench), named by a hash of its absolute path, so that copies never share one and the
 * same clone finds its data again on the next start.
 */
export function externalStateDir(runtimeDir: string): string {
  const key = createHash('sha256').update(path.resolve(runtimeDir)).digest('hex').slice(0, 16);
  return path.join(serviceStateBase(), key);
}

/** Whether a service's folder is outside the runtime folder (see OWN_ACCOUNT_SERVICES). */
export const runsOutsideRuntime = (name: ServiceName) => OWN_ACCOUNT_SERVICES.has(name) && isRoot();

/** The folder the project links to a service's external folder, so its logs are found where the others are. */
export const serviceLinkPath = (runtimeDir: string, name: ServiceName) => path.join(runtimeDir, 'services', name);

export function serviceDirs(runtimeDir: string, name: ServiceName): ServiceDirs {
  const root = runsOutsideRuntime(name) ? path.join(externalStateDir(runtimeDir), name) : serviceLinkPath(runtimeDir, name);
  return { root, conf: path.join(root, 'conf'), run: path.join(root, 'run'), log: path.join(root, 'log'), data: path.join(root, 'data') };
}

export async function makeServiceDirs(runtimeDir: string, name: ServiceName): Promise<ServiceDirs> {
  const dirs = serviceDirs(runtimeDir, name);
  if (runsOutsideRuntime(name)) await linkExternalServiceDir(runtimeDir, name, dirs.root);
  for (const d of [dirs.conf, dirs.run, dirs.log, dirs.data]) await mkdir(d, { recursive: true });
  return dirs;
}

/**
 * Makes the external folder (its parents traversable, nothing more) and links it from the runtime
 * folder. A folder left there by an earlier layout is moved out, so a clone keeps its chat history.
 */
async function linkExternalServiceDir(runtimeDir: string, name: ServiceName, root: string): Promise<void> {
  const base = serviceStateBase();
  await mkdir(base, { recursive: true, mode: 0o755 });
  await mkdir(path.dirname(root), { recursive: true, mode: 0o755 });
  const link = serviceLinkPath(runtimeDir, name);
  await mkdir(path.dirname(link), { recursive: true });
  const existing = await lstat(link).catch(() => null);
  let linked = false;
  if (existing?.isDirectory()) {
    if (await lstat(root).catch(() => null)) await rm(link, { recursive: true, force: true });
    else
      await rename(link, root).catch(async () => {
        await cp(link, root, { recursive: true, preserveTimestamps: true });
        await rm(link, { recursive: true, force: true });
      });
  } else if (existing) {
    linked = (await readlink(link).catch(() => '')) === root;
    if (!linked) await rm(link, { force: true });
  }
  await mkdir(root, { recursive: true, mode: 0o700 });
  if (!linked) await symlink(root, link);
}

/**
 * Removes a runtime folder and the external folders of its services (a test suite's or a bench's
 * throwaway runtime): what a run made outside the clone goes with it.
 */
export function removeRuntimeDir(runtimeDir: string): void {
  rmSync(runtimeDir, { recursive: true, force: true });
  if (isRoot()) rmSync(externalStateDir(runtimeDir), { recursive: true, force: true });
}

/** Page origins of the product by default: the API server's port on both loopback names, and Vite's dev server. */
export function defaultOrigins(apiPort: number): string[] {
  const out: string[] = [];
  for (const port of [apiPort, 5173]) for (const host of ['localhost', '127.0.0.1']) out.push(`http://${host}:${port}`);
  return out;
}

export function readServicesConfig(env: NodeJS.ProcessEnv = process.env, runtimeDir?: string): ServicesConfig {
  const ports = servicePorts(env.UC_PORT_BASE ? Number(env.UC_PORT_BASE) : undefined);
  const apiPort = Number(env.UC_API_PORT || 8080);
  return {
    runtimeDir: path.resolve(runtimeDir ?? env.UC_RUNTIME_DIR ?? path.join(import.meta.dirname, '..', '..', 'runtime')),
    ports,
    domain: UC_DOMAIN,
    origins: env.UC_ORIGINS ? env.UC_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean) : defaultOrigins(apiPort),
    gateway: env.UC_SIP_GATEWAY || `127.0.0.1:${ports.sipGateway}`,
    databaseUrl: env.DATABASE_URL || undefined,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    uploadUrl: env.UC_XMPP_UPLOAD_URL || `http://127.0.0.1:${ports.xmppHttp}/upload`,
    cluster: env.UC_CLUSTER === '1',
  };
}

export const SECRET_NAMES = {
  /** HS256 key of the short-lived XMPP login tokens (ejabberd reads it as a JWK). */
  xmppJwt: 'xmpp-jwt.key',
  /** Shared secret of Kamailio's auth_ephemeral (time-limited SIP credentials). */
  sipEphemeral: 'sip-ephemeral.key',
  /** Kamailio's header value on its calls to the API's /internal endpoints. */
  internalApi: 'internal-api.key',
  /** Janus's Admin API secret (operator use; never handed to clients). */
  janusAdmin: 'janus-admin.key',
  /** The videoroom plugin's admin_key: only the API server creates rooms. */
  janusRoomAdmin: 'janus-room-admin.key',
  /** Derives each videoroom's PIN and moderation secret from the meeting id (so a restarted Janus gets the same ones back). */
  janusRooms: 'janus-rooms.key',
  /** coturn's static-auth-secret: the API's short-lived TURN credentials (REST API scheme). */
  turn: 'turn.key',
} as const;

/**
 * A random secret under runtime/secrets, created on first use. Written aside and linked into place:
 * link() is atomic and refuses an existing file, so concurrent starters agree on one secret.
 */
export async function loadOrCreateSecret(runtimeDir: string, file: string, bytes = 48): Promise<Buffer> {
  const full = path.join(runtimeDir, 'secrets', file);
  await mkdir(path.dirname(full), { recursive: true, mode: 0o700 });
  // Unique per call, not just per process: two first uses at once in one process must not share a draft.
  const draft = `${full}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(draft, `${randomBytes(bytes).toString('base64url')}\n`, { mode: 0o600 });
  try {
    await link(draft, full);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(draft);
  }
  if (((await stat(full)).mode & 0o077) !== 0) await chmod(full, 0o600);
  return Buffer.from((await readFile(full, 'utf8')).trim(), 'base64url');
}
