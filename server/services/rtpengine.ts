import path from 'node:path';
import { makeServiceDirs, serviceDirs, type ServicesConfig } from './layout';
import { NgClient } from './ng';
import type { ServiceDefinition } from './manager';

/** rtpengine in userspace (no kernel module here), Debian's /etc config ignored. Recordings as pcap. */
export const rtpengine: ServiceDefinition = {
  name: 'rtpengine',
  packages: ['rtpengine-daemon', 'rtpengine-utils'],
  pidFile: (cfg) => path.join(serviceDirs(cfg.runtimeDir, 'rtpengine').run, 'rtpengine.pid'),
  async probe(cfg) {
    const ng = new NgClient(cfg.ports.rtpengineNg);
    try {
      return await ng.ping();
    } finally {
      ng.close();
    }
  },
  async prepare(cfg: ServicesConfig) {
    const dirs = await makeServiceDirs(cfg.runtimeDir, 'rtpengine');
    const { ports } = cfg;
    return {
      name: 'rtpengine',
      command: 'rtpengine',
      args: [
        '--config-file=none',
        '--table=-1',
        '--foreground',
        '--log-stderr',
        '--interface=127.0.0.1',
        `--listen-ng=127.0.0.1:${ports.rtpengineNg}`,
        `--port-min=${ports.rtpMin}`,
        `--port-max=${ports.rtpMax}`,
        `--pidfile=${path.join(dirs.run, 'rtpengine.self.pid')}`,
        '--recording-method=pcap',
        '--recording-format=raw',
        `--recording-dir=${path.join(dirs.data, 'recordings')}`,
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
      pidFile: rtpengine.pidFile(cfg),
      ready: () => rtpengine.probe(cfg),
      ports: [{ port: ports.rtpengineNg, proto: 'udp' }],
      readyTimeoutMs: 15_000,
    };
  },
};
