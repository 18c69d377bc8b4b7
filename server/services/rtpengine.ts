import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { makeServiceDirs, serviceDirs, type ServicesConfig } from './layout';
import { NgClient } from './ng';
import type { ServiceDefinition } from './manager';

export type RtpengineNode = 1 | 2;

/**
 * What differs between the two rtpengines of a cluster: control port, folder and media ports. In a
 * cluster each takes half of the copy's media range, so the two never compete for a port; alone,
 * the first has all of it.
 */
export function rtpengineNode(cfg: ServicesConfig, node: RtpengineNode) {
  const { ports } = cfg;
  const half = Math.floor((ports.rtpMax - ports.rtpMin + 1) / 2);
  const name = node === 1 ? ('rtpengine' as const) : ('rtpengine2' as const);
  const portMin = node === 1 ? ports.rtpMin : ports.rtpMin + half;
  const portMax = node === 1 && cfg.cluster ? ports.rtpMin + half - 1 : ports.rtpMax;
  return { name, ngPort: node === 1 ? ports.rtpengineNg : ports.rtpengine2Ng, portMin, portMax };
}

/** The ng ports of every rtpengine this configuration runs (one, or two in a cluster). */
export const rtpengineNgPorts = (cfg: ServicesConfig): number[] => (cfg.cluster ? [cfg.ports.rtpengineNg, cfg.ports.rtpengine2Ng] : [cfg.ports.rtpengineNg]);

/** rtpengine in userspace (no kernel module here), Debian's /etc config ignored. Recordings as pcap. */
function rtpengineDefinition(node: RtpengineNode): ServiceDefinition {
  const def: ServiceDefinition = {
    name: node === 1 ? 'rtpengine' : 'rtpengine2',
    packages: ['rtpengine-daemon', 'rtpengine-utils'],
    pidFile: (cfg) => path.join(serviceDirs(cfg.runtimeDir, def.name).run, 'rtpengine.pid'),
    async probe(cfg) {
      const ng = new NgClient(rtpengineNode(cfg, node).ngPort);
      try {
        return await ng.ping();
      } finally {
        ng.close();
      }
    },
    async prepare(cfg: ServicesConfig) {
      const dirs = await makeServiceDirs(cfg.runtimeDir, def.name);
      const { ports } = cfg;
      const me = rtpengineNode(cfg, node);
      // One recordings folder for both (a call's files are named by its Call-ID, and a call is on one
      // rtpengine): the API finds every call's recording where it always looked. Two machines would
      // share it over the network.
      const recordings = path.join(serviceDirs(cfg.runtimeDir, 'rtpengine').data, 'recordings');
      await mkdir(recordings, { recursive: true });
      return {
        name: def.name,
        command: 'rtpengine',
        args: [
          '--config-file=none',
          '--table=-1',
          '--foreground',
          '--log-stderr',
          '--interface=127.0.0.1',
          `--listen-ng=127.0.0.1:${me.ngPort}`,
          `--port-min=${me.portMin}`,
          `--port-max=${me.portMax}`,
          `--pidfile=${path.join(dirs.run, 'rtpengine.self.pid')}`,
          '--recording-method=pcap',
          '--recording-format=raw',
          `--recording-dir=${recordings}`,
          '--delete-delay=0',
          // Every DTMF digit of every call, as JSON, to the API server: the recording DTMF sequences.
          `--dtmf-log-dest=127.0.0.1:${ports.dtmfEvents}`,
          '--num-threads=2',
          // A browser's DTLS handshake starts from the browser, after it has the answer: a call whose
          // media session Kamailio replaces before anyone answered (a hunt's next target, voicemail
          // after ringing) would otherwise have had a handshake begun by the first session, and the
          // browser then refuses the second one (rtpengine logs "DTLS error: 1 (bad signature)").
          '--dtls-passive',
        ],
        logFile: path.join(dirs.log, 'rtpengine.log'),
        pidFile: def.pidFile(cfg),
        ready: () => def.probe(cfg),
        ports: [{ port: me.ngPort, proto: 'udp' }],
        readyTimeoutMs: 15_000,
      };
    },
  };
  return def;
}

export const rtpengine = rtpengineDefinition(1);
/** The second rtpengine of a cluster: Kamailio uses both as one weighted set. */
export const rtpengine2 = rtpengineDefinition(2);
