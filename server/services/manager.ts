import { execFileSync } from 'node:child_process';
import { CLUSTER_ONLY_SERVICES, SERVICE_NAMES, type ServiceName, type ServicesConfig } from './layout';
import { runningPid, startProcess, stopProcess, type ProcessSpec } from './proc';

/** One server the product runs: how to configure, start, probe and find it. */
export interface ServiceDefinition {
  name: ServiceName;
  /** Debian packages it needs. */
  packages: readonly string[];
  pidFile(cfg: ServicesConfig): string;
  /** True when it answers on its ports as it should (used for readiness and status). */
  probe(cfg: ServicesConfig): Promise<boolean>;
  /** Writes its configuration under the runtime folder and says how to start it. */
  prepare(cfg: ServicesConfig): Promise<ProcessSpec>;
}

export interface ServiceStatus {
  name: ServiceName;
  pid: number | null;
  ready: boolean;
}

// The second nodes (CLUSTER_ONLY_SERVICES) join here as their definitions land.
const LOADERS: Partial<Record<ServiceName, () => Promise<ServiceDefinition>>> = {
  rtpengine: () => import('./rtpengine').then((m) => m.rtpengine),
  rtpengine2: () => import('./rtpengine').then((m) => m.rtpengine2),
  kamailio: () => import('./kamailio').then((m) => m.kamailio),
  kamailio2: () => import('./kamailio').then((m) => m.kamailio2),
  voicemail: () => import('./voicemail').then((m) => m.voicemail),
  ejabberd: () => import('./ejabberd').then((m) => m.ejabberd),
  ejabberd2: () => import('./ejabberd').then((m) => m.ejabberd2),
  echo: () => import('./echo').then((m) => m.echo),
  clickdial: () => import('./clickdial').then((m) => m.clickdial),
  janus: () => import('./janus').then((m) => m.janus),
  janus2: () => import('./janus').then((m) => m.janus2),
  coturn: () => import('./coturn').then((m) => m.coturn),
};

/** Only the modules of the services asked for are loaded. */
async function definitions(names: readonly ServiceName[]): Promise<Partial<Record<ServiceName, ServiceDefinition>>> {
  const defs = await Promise.all(names.map((n) => LOADERS[n]!()));
  return Object.fromEntries(defs.map((d) => [d.name, d]));
}

/** The services asked for (all by default), in start order; second nodes only in a cluster. */
function pick(names: readonly ServiceName[] | undefined, cluster = false): ServiceName[] {
  return SERVICE_NAMES.filter((n) => LOADERS[n] && (cluster || !CLUSTER_ONLY_SERVICES.has(n)) && (!names || names.length === 0 || names.includes(n)));
}

export async function requiredPackages(names?: readonly ServiceName[], cluster = false): Promise<string[]> {
  const defs = await definitions(pick(names, cluster));
  return pick(names, cluster).flatMap((n) => defs[n]!.packages);
}

export function missingPackages(packages: readonly string[]): string[] {
  return packages.filter((p) => {
    try {
      return !execFileSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).includes('install ok installed');
    } catch {
      return true;
    }
  });
}

/** Starts the services in dependency order (media, SIP, XMPP); each is ready when this returns. */
export async function startServices(cfg: ServicesConfig, names?: readonly ServiceName[], log: (line: string) => void = () => {}): Promise<ServiceStatus[]> {
  const defs = await definitions(pick(names, cfg.cluster));
  const missing = missingPackages(pick(names, cfg.cluster).flatMap((n) => defs[n]!.packages));
  if (missing.length) throw new Error(`Missing Debian packages. As root: apt-get update && apt-get install -y ${missing.join(' ')}`);
  const out: ServiceStatus[] = [];
  for (const name of pick(names, cfg.cluster)) {
    const started = performance.now();
    try {
      const pid = await startProcess(await defs[name]!.prepare(cfg));
      log(`${name} ready (PID ${pid}, ${Math.round(performance.now() - started)} ms)`);
      out.push({ name, pid, ready: true });
    } catch (err) {
      // All or nothing: a caller whose start failed never reaches its teardown, so nothing started
      // here may be left running without anyone to stop it.
      for (const s of out.reverse()) await stopProcess(defs[s.name]!.pidFile(cfg));
      throw err;
    }
  }
  return out;
}

/** Stops by PID, in reverse order. */
export async function stopServices(cfg: ServicesConfig, names?: readonly ServiceName[]): Promise<void> {
  const defs = await definitions(pick(names, cfg.cluster));
  for (const name of pick(names, cfg.cluster).reverse()) await stopProcess(defs[name]!.pidFile(cfg));
}

export async function servicesStatus(cfg: ServicesConfig, names?: readonly ServiceName[]): Promise<ServiceStatus[]> {
  const defs = await definitions(pick(names, cfg.cluster));
  return Promise.all(
    pick(names, cfg.cluster).map(async (name) => {
      const def = defs[name]!;
      const pid = await runningPid(def.pidFile(cfg));
      return { name, pid, ready: pid ? await def.probe(cfg).catch(() => false) : false };
    }),
  );
}
