import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pcm16Wav } from '../media/wav';
import { baresipConfig, baresipProcess } from './baresip-control';
import { sipOptionsPing } from './kamailio';
import { makeServiceDirs, serviceDirs, type ServicesConfig } from './layout';
import type { ServiceDefinition } from './manager';

/**
 * The click-dial phone: a baresip process (Debian's) that the API server drives over `ctrl_tcp` for
 * "call my phone first". It calls the user's desk phone through Kamailio and, once it is answered,
 * transfers it (REFER) to the number: the desk phone then places the real call itself, with its own
 * credentials, so the call is the user's in every respect (caller ID, history, recording rules).
 * A process of its own: the voicemail phone plays its greeting to whoever it is in a call with.
 */

/** The From user of its calls; Kamailio lets it ring desk phones only (route CLICKDIAL). */
export const CLICKDIAL_USER = 'clickdial';
/** Its leg to the desk phone ends when its audio source does: a cap should a transfer never finish. */
export const CLICKDIAL_LEG_MAX_SECONDS = 120;
const RATE = 8000;

export const clickDialSilence = (cfg: Pick<ServicesConfig, 'runtimeDir'>) => path.join(serviceDirs(cfg.runtimeDir, 'clickdial').conf, 'silence.wav');

export function clickDialPhoneConfig(cfg: ServicesConfig): string {
  const { ports } = cfg;
  return baresipConfig({
    sipPort: ports.clickDialSip,
    ctrlPort: ports.clickDialCtrl,
    rtpPorts: [ports.clickDialRtpMin, ports.clickDialRtpMax],
    audioSourceWav: clickDialSilence(cfg),
    srate: RATE,
    // Two ports per call (RTP and RTCP).
    maxCalls: Math.floor((ports.clickDialRtpMax - ports.clickDialRtpMin + 1) / 2),
  });
}

export const clickdial: ServiceDefinition = {
  name: 'clickdial',
  packages: ['baresip'],
  pidFile: (cfg) => path.join(serviceDirs(cfg.runtimeDir, 'clickdial').run, 'clickdial.pid'),
  probe: (cfg) => sipOptionsPing(cfg.ports.clickDialSip, 500, CLICKDIAL_USER),
  async prepare(cfg: ServicesConfig) {
    const dirs = await makeServiceDirs(cfg.runtimeDir, 'clickdial');
    await writeFile(clickDialSilence(cfg), pcm16Wav(new Float32Array(RATE * CLICKDIAL_LEG_MAX_SECONDS), RATE));
    await writeFile(path.join(dirs.conf, 'config'), clickDialPhoneConfig(cfg));
    // No registration: it only places calls, and Kamailio knows it by its address and port.
    await writeFile(path.join(dirs.conf, 'accounts'), `<sip:${CLICKDIAL_USER}@${cfg.domain}>;regint=0;outbound="sip:127.0.0.1:${cfg.ports.sipUdp}"\n`);
    return baresipProcess('clickdial', dirs, { pidFile: clickdial.pidFile(cfg), ready: () => clickdial.probe(cfg), sipPort: cfg.ports.clickDialSip, ctrlPort: cfg.ports.clickDialCtrl });
  },
};
