/**
 * Find-me's recorded name (recordName): the WAV a user saves, checked, and turned into the file
 * rtpengine plays to their callers (Kamailio's play_media, server/services/kamailio.cfg.tmpl): the
 * name, "please hold while we locate…", then ringing.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { speak } from '../media/speech';
import { readWav } from '../media/wav';
import { HOLD_TEXT, makeAnnouncement, spokenAt8k } from '../services/voicemail';
import { announceFiles } from '../services/voicemail-accounts';

/** A name, not a message: long enough to be heard, short enough not to keep callers waiting. */
export const NAME_MIN_MS = 300;
export const NAME_MAX_MS = 6000;

export type NameProblem = 'not_wav' | 'too_short' | 'too_long';

/** Why these bytes are no recorded name (16-bit PCM WAV, 0.3–6 s), or their length. */
export function checkRecordedName(wav: Buffer): { durationMs: number } | { problem: NameProblem } {
  let info;
  try {
    info = readWav(wav);
  } catch {
    return { problem: 'not_wav' };
  }
  if (info.bitsPerSample !== 16 || info.channels < 1 || info.sampleRate < 8000) return { problem: 'not_wav' };
  if (info.durationMs < NAME_MIN_MS) return { problem: 'too_short' };
  if (info.durationMs > NAME_MAX_MS) return { problem: 'too_long' };
  return { durationMs: info.durationMs };
}

/** Writes (or, for null, removes) the announcement Kamailio plays for `extension`'s callers. */
export async function writeNamedAnnouncement(runtimeDir: string, extension: string, wav: Buffer | null): Promise<void> {
  const file = announceFiles({ runtimeDir }).named(extension);
  if (!wav) {
    await rm(file, { force: true });
    return;
  }
  const out = makeAnnouncement([spokenAt8k(wav), spokenAt8k(await speak(HOLD_TEXT))]);
  await mkdir(path.dirname(file), { recursive: true });
  // Renamed into place: rtpengine may be reading the previous one for a call right now.
  const part = `${file}.${process.pid}.part`;
  await writeFile(part, out);
  await rename(part, file);
}
