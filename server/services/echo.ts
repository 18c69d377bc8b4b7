import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { baresipProcess } from './baresip-control';
import { sipOptionsPing } from './kamailio';
import { makeServiceDirs, serviceDirs, type ServicesConfig } from './layout';
import type { ServiceDefinition } from './manager';

/**
 * The echo phone: a baresip process (Debian's) whose `echo` module answers every call it gets and
 * plays back what it hears, each call through its own `aubridge` device (what it decodes is what it
 * encodes and sends). Kamailio sends the echo test number (ECHO_EXTENSION, `*43`) here, so the
 * caller's audio goes browser → rtpengine → this phone → rtpengine → browser: the trip a real call
 * makes. It is a process of its own because the echo module answers every incoming call, which the
 * voicemail phone must not do.
 */

/** The one account: the request-URI user Kamailio gives echo calls. */
export const ECHO_USER = 'echo';

export function echoPhoneConfig(cfg: ServicesConfig): string {
  const { ports } = cfg;
  return [
    'poll_method epoll',
    `sip_listen 127.0.0.1:${ports.echoSip}`,
    // The interface by address: by name ("lo") baresip finds no network address.
    'net_interface 127.0.0.1',
    `rtp_ports ${ports.echoRtpMin}-${ports.echoRtpMax}`,
    // Two ports per call (RTP and RTCP): as many tests at once as the port range allows.
    `call_max_calls ${Math.floor((ports.echoRtpMax - ports.echoRtpMin + 1) / 2)}`,
    // The echo module names a bridge device per call; the bridge must be both player and source.
    'audio_player aubridge,none',
    'audio_source aubridge,none',
    'audio_alert aubridge,none',
    'ausrc_srate 8000',
    'auplay_srate 8000',
    'ausrc_channels 1',
    'auplay_channels 1',
    'module_path /usr/lib/baresip/modules',
    'module g711.so',
    'module aubridge.so',
    'module_app account.so',
    'module_app echo.so',
    '',
  ].join('\n');
}

export const echo: ServiceDefinition = {
  name: 'echo',
  packages: ['baresip'],
  pidFile: (cfg) => path.join(serviceDirs(cfg.runtimeDir, 'echo').run, 'echo.pid'),
  probe: (cfg) => sipOptionsPing(cfg.ports.echoSip, 500, ECHO_USER),
  async prepare(cfg: ServicesConfig) {
    const dirs = await makeServiceDirs(cfg.runtimeDir, 'echo');
    await writeFile(path.join(dirs.conf, 'config'), echoPhoneConfig(cfg));
    // Not auto-answer: the echo module answers, after giving the call its own bridge device.
    await writeFile(path.join(dirs.conf, 'accounts'), `<sip:${ECHO_USER}@${cfg.domain}>;regint=0\n`);
    return baresipProcess('echo', dirs, { pidFile: echo.pidFile(cfg), ready: () => echo.probe(cfg), sipPort: cfg.ports.echoSip });
  },
};
