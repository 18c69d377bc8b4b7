import type { ServicesConfig } from './layout';

/** One node of the project's ejabberd: its service name, Erlang node name and loopback ports. */
export interface EjabberdNode {
  service: 'ejabberd' | 'ejabberd2';
  /** The part before `@localhost` (also the key of uc_epmd's port table). */
  alive: string;
  erlangNode: string;
  /** XMPP over WebSocket at /ws, chat files at /upload. */
  http: number;
  /** mod_http_api at /api (provisioning by the API server). */
  api: number;
  c2s: number;
  /** Erlang distribution (no epmd: see uc_epmd.erl). */
  dist: number;
}

function node(service: EjabberdNode['service'], alive: string, http: number, api: number, c2s: number, dist: number): EjabberdNode {
  return { service, alive, erlangNode: `${alive}@localhost`, http, api, c2s, dist };
}

/**
 * The ejabberd nodes of this configuration: one, or two in a cluster (UC_CLUSTER=1). The first keeps
 * the name it always had, so that its Mnesia folder (bound to the node name) stays valid.
 */
export function ejabberdNodes(cfg: Pick<ServicesConfig, 'ports' | 'cluster'>): EjabberdNode[] {
  const { ports } = cfg;
  const first = node('ejabberd', `uc${ports.base}`, ports.xmppHttp, ports.xmppApi, ports.xmppC2s, ports.xmppErlDist);
  if (!cfg.cluster) return [first];
  return [first, node('ejabberd2', `uc${ports.base}n2`, ports.xmpp2Http, ports.xmpp2Api, ports.xmpp2C2s, ports.xmpp2ErlDist)];
}

/**
 * Where a node's upload slots are PUT and read: a slot is known only to the node that handed it out,
 * so each node has its own address (the first node's is UC_XMPP_UPLOAD_URL's); their folder is one.
 */
export const nodeUploadUrl = (cfg: Pick<ServicesConfig, 'uploadUrl'>, node: EjabberdNode) => (node.service === 'ejabberd' ? cfg.uploadUrl : `http://127.0.0.1:${node.http}/upload`);

/** The browser's WebSocket address of each node, first node first (the client tries them in turn). */
export const ejabberdWsUrls = (cfg: Pick<ServicesConfig, 'ports' | 'cluster'>) => ejabberdNodes(cfg).map((n) => `ws://127.0.0.1:${n.http}/ws`);

/** The refusal of a cluster without PostgreSQL: the nodes share their accounts, archive and rooms there. */
export function assertClusterStorage(cfg: Pick<ServicesConfig, 'cluster' | 'databaseUrl'>): void {
  if (cfg.cluster && !cfg.databaseUrl)
    throw new Error('UC_CLUSTER=1 needs DATABASE_URL (PostgreSQL): the two ejabberd nodes share their accounts, archive and rooms in it; SQLite and PGlite belong to one machine');
}
