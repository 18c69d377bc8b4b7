/**
 * Speech made with espeak-ng (Debian package `espeak-ng`): the demo's voicemail and recordings, and
 * the voicemail greeting callers hear.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readWav } from './wav';

export class SpeechUnavailableError extends Error {
  constructor(detail: string) {
    super(`espeak-ng is needed to make the demo's voicemail and recording audio (${detail}). Install it: apt-get install espeak-ng`);
    this.name = 'SpeechUnavailableError';
  }
}

/**
 * Spoken clips are kept here between seeds (content-addressed by voice and text): every test
 * server and every e2e run seeds a fresh database, and espeak-ng takes seconds per seed.
 */
const SPEECH_CACHE = process.env.UC_SPEECH_CACHE ?? path.join(tmpdir(), 'uc-speech-cache');

/** Speaks `text` into a WAV file's bytes (from the cache when this clip was spoken before). */
export async function speak(text: string, voice = 'en-us', dir?: string): Promise<Buffer> {
  const name = `${createHash('sha1').update(`${voice}\n${text}`).digest('hex')}.wav`;
  const cached = path.join(SPEECH_CACHE, name);
  const hit = await readFile(cached).catch(() => null);
  if (hit && readWav(hit).durationMs >= 300) return hit;
  const bytes = await speakFresh(text, voice, dir, name);
  // Written under a temporary name and renamed, so a reader never sees half a file.
  await mkdir(SPEECH_CACHE, { recursive: true });
  const part = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(part, bytes);
  await rename(part, cached).catch(() => rm(part, { force: true }));
  return bytes;
}

async function speakFresh(text: string, voice: string, dir: string | undefined, name: string): Promise<Buffer> {
  const own = dir ? null : await mkdtemp(path.join(tmpdir(), 'uc-speech-'));
  const file = path.join(dir ?? own!, name);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.env.UC_ESPEAK ?? 'espeak-ng', ['-v', voice, '-s', '165', '-w', file, text], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', (e: NodeJS.ErrnoException) => reject(new SpeechUnavailableError(e.code === 'ENOENT' ? 'not installed' : e.message)));
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new SpeechUnavailableError(`exit ${code}: ${err.trim()}`))));
    });
    const bytes = await readFile(file);
    if (readWav(bytes).durationMs < 300) throw new SpeechUnavailableError('it produced no speech');
    return bytes;
  } finally {
    if (own) await rm(own, { recursive: true, force: true });
  }
}
