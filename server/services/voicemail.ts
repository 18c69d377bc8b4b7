import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { speak } from '../media/speech';
import { pcm16Wav, readWav } from '../media/wav';
import { baresipConfig, baresipProcess } from './baresip-control';
import { sipOptionsPing } from './kamailio';
import { makeServiceDirs, serviceDirs, type ServicesConfig } from './layout';
import { announceFiles } from './voicemail-accounts';
import type { ServiceDefinition } from './manager';

/**
 * The voicemail phone: one baresip process (Debian's) that answers calls Kamailio sends to a
 * mailbox. There is no PBX in Debian 12 (see INFRA.md), so the parts are: Kamailio decides when a
 * call goes to voicemail, baresip answers it and plays the greeting, rtpengine records the caller's
 * audio, and the API server (server/voicemail/deposit.ts) drives baresip over `ctrl_tcp`, turns the
 * recording into a voicemail message and files it in the mailbox.
 *
 * baresip hangs up when its audio source ends, so the greeting file is the greeting, a tone, and
 * then silence as long as the longest message: that is what caps a message's length.
 */

/** Voicemail plays at telephone quality: baresip offers G.711 only. */
export const GREETING_RATE = 8000;
/** The longest message a caller can leave. */
export const MAX_MESSAGE_SECONDS = 120;
/** The one account configured from the start; mailboxes are numbers, so it never takes a call. */
const PROBE_USER = 'voicemail';
export const GREETING_TEXT = 'Please leave your message after the tone. Hang up when you are done.';
/** Find-me's announcement (announceBetween), after the user's recorded name when there is one. */
export const HOLD_TEXT = 'Please hold while we locate the person you are calling.';
/** How long the announcement's ringing goes on after the words (the longest find-me attempt rings 30 s). */
const ANNOUNCE_RINGBACK_SECONDS = 60;

export interface GreetingInfo {
  /** Where the caller's message starts: the end of the tone, from the moment the call is answered. */
  messageStartsMs: number;
  maxMessageSeconds: number;
}

export const greetingFiles = (cfg: Pick<ServicesConfig, 'runtimeDir'>) => {
  const conf = serviceDirs(cfg.runtimeDir, 'voicemail').conf;
  return { wav: path.join(conf, 'greeting.wav'), info: path.join(conf, 'greeting.json'), only: path.join(conf, 'greeting-only.wav') };
};

export async function readGreetingInfo(cfg: Pick<ServicesConfig, 'runtimeDir'>): Promise<GreetingInfo> {
  return JSON.parse(await readFile(greetingFiles(cfg).info, 'utf8')) as GreetingInfo;
}

/** Its CommonJS build: the package's ESM entry has no default export, and Node and Vite disagree on which to load. */
const { resample } = createRequire(import.meta.url)('wave-resampler') as typeof import('wave-resampler');

/** espeak-ng's speech (or any 16-bit WAV: a recorded name) at the phone's rate, mono. */
export function spokenAt8k(speech: Buffer): Float32Array {
  const w = readWav(speech);
  if (w.bitsPerSample !== 16) throw new Error('espeak-ng produced a WAV that is not 16-bit');
  const voice = new Float32Array(w.dataBytes / 2 / w.channels);
  for (let i = 0; i < voice.length; i++) voice[i] = speech.readInt16LE(w.dataOffset + i * 2 * w.channels) / 0x8000;
  return Float32Array.from(resample(voice, w.sampleRate, GREETING_RATE, { method: 'sinc' }));
}

/**
 * The greeting alone, then half a second of silence: what a `repeat_greeting` call hears before
 * the phone hangs up (baresip ends the call when its audio source ends).
 */
export function makeGreetingOnly(speech: Buffer): Buffer {
  const spoken = spokenAt8k(speech);
  const out = new Float32Array(spoken.length + GREETING_RATE / 2);
  out.set(spoken, 0);
  return pcm16Wav(out, GREETING_RATE);
}

/** The spoken greeting at 8 kHz, a short pause, a 1 kHz tone, then silence up to the longest message. */
export async function makeGreeting(speech: Buffer): Promise<{ wav: Buffer; info: GreetingInfo }> {
  const spoken = spokenAt8k(speech);
  const pause = Math.round(GREETING_RATE * 0.3);
  const tone = Math.round(GREETING_RATE * 0.4);
  const before = spoken.length + pause + tone;
  const out = new Float32Array(before + GREETING_RATE * MAX_MESSAGE_SECONDS);
  out.set(spoken, 0);
  for (let i = 0; i < tone; i++) out[spoken.length + pause + i] = 0.3 * Math.sin((2 * Math.PI * 1000 * i) / GREETING_RATE);
  return { wav: pcm16Wav(out, GREETING_RATE), info: { messageStartsMs: Math.round((before / GREETING_RATE) * 1000), maxMessageSeconds: MAX_MESSAGE_SECONDS } };
}

/**
 * What a find-me caller hears while the locations ring: the clips (the recorded name, "please
 * hold…"), then ringing (440+480 Hz, 2 s on, 4 s off): the caller's phone plays no ringback of its
 * own once it has early media, and would otherwise hear silence after the words.
 */
export function makeAnnouncement(clips: readonly Float32Array[]): Buffer {
  const gap = Math.round(GREETING_RATE * 0.4);
  const words = clips.reduce((n, c) => n + c.length + gap, 0);
  const out = new Float32Array(words + GREETING_RATE * ANNOUNCE_RINGBACK_SECONDS);
  let at = 0;
  for (const c of clips) {
    out.set(c, at);
    at += c.length + gap;
  }
  for (let i = 0; at + i < out.length; i++) {
    if (i % (GREETING_RATE * 6) < GREETING_RATE * 2) out[at + i] = 0.1 * (Math.sin((2 * Math.PI * 440 * i) / GREETING_RATE) + Math.sin((2 * Math.PI * 480 * i) / GREETING_RATE));
  }
  return pcm16Wav(out, GREETING_RATE);
}

export function voicemailPhoneConfig(cfg: ServicesConfig, greetingWav: string): string {
  const { ports } = cfg;
  // Several callers may leave messages at once; what they say goes nowhere here (rtpengine records it).
  return baresipConfig({ sipPort: ports.voicemailSip, ctrlPort: ports.voicemailCtrl, rtpPorts: [ports.voicemailRtpMin, ports.voicemailRtpMax], audioSourceWav: greetingWav, srate: GREETING_RATE, maxCalls: 20 });
}

export const voicemail: ServiceDefinition = {
  name: 'voicemail',
  packages: ['baresip', 'espeak-ng'],
  pidFile: (cfg) => path.join(serviceDirs(cfg.runtimeDir, 'voicemail').run, 'voicemail.pid'),
  // An OPTIONS answered: its SIP stack runs (the control port takes one client only: the API's).
  probe: (cfg) => sipOptionsPing(cfg.ports.voicemailSip, 500, PROBE_USER),
  async prepare(cfg: ServicesConfig) {
    const dirs = await makeServiceDirs(cfg.runtimeDir, 'voicemail');
    const files = greetingFiles(cfg);
    const speech = await speak(GREETING_TEXT);
    const greeting = await makeGreeting(speech);
    await writeFile(files.wav, greeting.wav);
    await writeFile(files.only, makeGreetingOnly(speech));
    await writeFile(files.info, JSON.stringify(greeting.info));
    await writeFile(announceFiles(cfg).hold, makeAnnouncement([spokenAt8k(await speak(HOLD_TEXT))]));
    await writeFile(path.join(dirs.conf, 'config'), voicemailPhoneConfig(cfg, files.wav));
    // Mailboxes are added at run time by the API server (`uanew`), one account each. This one only
    // gives baresip a user agent from the start, which answers the readiness probe's OPTIONS.
    await writeFile(path.join(dirs.conf, 'accounts'), `<sip:${PROBE_USER}@${cfg.domain}>;regint=0\n`);
    return baresipProcess('voicemail', dirs, { pidFile: voicemail.pidFile(cfg), ready: () => voicemail.probe(cfg), sipPort: cfg.ports.voicemailSip, ctrlPort: cfg.ports.voicemailCtrl });
  },
};
