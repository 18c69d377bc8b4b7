import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db, Queryable } from '../db/types';
import { decodeRtpPcap, mixStreamsToWavInTurns } from '../media/rtp-pcap';
import { joinWavs, readWav } from '../media/wav';
import { serviceDirs } from '../services/layout';

/**
 * Turning what rtpengine recorded of a call into an entry of the call-recordings store.
 *
 * rtpengine (`--recording-method=pcap`) writes one pcap per recording segment: `start recording`
 * opens `<call-id>-<hex>.pcap`, `stop recording` (our pause) closes it, a resume opens another.
 * When the call ends, the segments are decoded, each mixed to mono (both sides of the
 * conversation) and joined in the order they were recorded, so a paused stretch is simply absent.
 * Every party of the call who is a user gets the recording in their list (their own row, their own
 * direction and other party; the audio is stored once).
 */

/**
 * Where rtpengine writes its segments and their metadata files (see server/services/rtpengine.ts),
 * and where this server notes the calls whose recording it still has to convert.
 */
export function recordingDirs(runtimeDir: string): { pcaps: string; metadata: string; pending: string } {
  const root = path.join(serviceDirs(runtimeDir, 'rtpengine').data, 'recordings');
  return { pcaps: path.join(root, 'pcaps'), metadata: path.join(root, 'metadata'), pending: path.join(root, 'pending') };
}

/** A Call-ID is any text: the note's file name is a digest of it. */
const pendingName = (callId: string) => `${createHash('sha256').update(callId).digest('hex').slice(0, 32)}.json`;

/** Rate of the stored WAV: wideband speech, a third of Opus's 48 kHz, twice G.711's 8 kHz. */
export const RECORDING_SAMPLE_RATE = 16_000;

/** How long to wait for rtpengine to close a call's files after the call ended. */
const CLOSE_TIMEOUT_MS = 20_000;
/** A segment whose size has not changed for this long is taken as complete even without its metadata. */
const SETTLED_MS = 2000;

export interface FinishedCall {
  callId: string;
  startedAt: Date;
  callerUserId: number | null;
  calleeUserId: number | null;
  /** The numbers Kamailio reported (an extension, or an outside number). */
  callerNumber: string;
  calleeNumber: string;
}

export interface IndexedRecording {
  mediaId: number;
  recordingIds: number[];
  durationMs: number;
  segments: number;
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** The call's segment files, by name (never by building a path from the Call-ID). */
export async function segmentFiles(runtimeDir: string, callId: string): Promise<string[]> {
  const { pcaps } = recordingDirs(runtimeDir);
  const names = await readdir(pcaps).catch(() => [] as string[]);
  return names.filter((n) => n.startsWith(`${callId}-`) && n.endsWith('.pcap') && /^[0-9a-f]+$/i.test(n.slice(callId.length + 1, -5)));
}

export const metadataOf = (runtimeDir: string, pcapName: string) => path.join(recordingDirs(runtimeDir).metadata, `rtpengine-meta-${pcapName.replace(/\.pcap$/, '.txt')}`);

/**
 * rtpengine notes "call end time" in a segment's metadata file once it closed the pcap; a file
 * whose metadata never says so (a crash) counts as closed once it stops growing.
 */
export async function waitUntilClosed(runtimeDir: string, names: readonly string[], timeoutMs: number): Promise<void> {
  const { pcaps } = recordingDirs(runtimeDir);
  const deadline = Date.now() + timeoutMs;
  const sizes = new Map<string, { size: number; since: number }>();
  for (;;) {
    let open = 0;
    for (const n of names) {
      const meta = await readFile(metadataOf(runtimeDir, n), 'utf8').catch(() => '');
      if (/call end time:/.test(meta)) continue;
      const size = (await stat(path.join(pcaps, n)).catch(() => null))?.size ?? -1;
      const seen = sizes.get(n);
      if (!seen || seen.size !== size) sizes.set(n, { size, since: Date.now() });
      else if (Date.now() - seen.since >= SETTLED_MS) continue;
      open++;
    }
    if (!open || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One mono WAV of the call's segments in the order they were recorded, or null if none had audio. */
export async function recordingWav(runtimeDir: string, names: readonly string[]): Promise<{ wav: Buffer; durationMs: number } | null> {
  const { pcaps } = recordingDirs(runtimeDir);
  const segments: Array<{ first: number; wav: Buffer }> = [];
  for (const n of names) {
    const streams = await decodeRtpPcap(await readFile(path.join(pcaps, n)), { opusSampleRate: RECORDING_SAMPLE_RATE });
    if (!streams.length) continue;
    const { wav } = await mixStreamsToWavInTurns(streams, { sampleRate: RECORDING_SAMPLE_RATE });
    segments.push({ first: Math.min(...streams.map((s) => s.firstPacketMs)), wav });
  }
  if (!segments.length) return null;
  segments.sort((a, b) => a.first - b.first);
  const wav = segments.length === 1 ? segments[0]!.wav : joinWavs(segments.map((s) => s.wav));
  return { wav, durationMs: readWav(wav).durationMs };
}

interface PartyRow {
  id: number;
  name: string;
}

async function parties(db: Queryable, ids: ReadonlyArray<number | null>): Promise<Map<number, PartyRow>> {
  const wanted = ids.filter((id): id is number => id !== null);
  if (!wanted.length) return new Map();
  const { rows } = await db.query<PartyRow>(`SELECT id, trim(first_name || ' ' || last_name) AS name FROM users WHERE id = ANY($1::int[])`, [wanted]);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Stores the audio once and gives each party who is a user a recording row. */
export async function storeCallRecording(db: Db, call: FinishedCall, audio: { wav: Buffer; durationMs: number }): Promise<IndexedRecording> {
  const users = await parties(db, [call.callerUserId, call.calleeUserId]);
  const caller = call.callerUserId !== null ? users.get(call.callerUserId) : undefined;
  const callee = call.calleeUserId !== null ? users.get(call.calleeUserId) : undefined;
  const sha256 = createHash('sha256').update(audio.wav).digest('hex');
  return db.transaction(async (tx) => {
    const blob = await tx.query<{ id: number }>(
      `INSERT INTO media_blobs (sha256, content_type, duration_ms, bytes) VALUES ($1, 'audio/wav', $2, $3)
       ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256 RETURNING id`,
      [sha256, audio.durationMs, audio.wav],
    );
    const mediaId = blob.rows[0]!.id;
    const rows: Array<[number, 'IN' | 'OUT', string, string | null]> = [];
    if (caller) rows.push([caller.id, 'OUT', call.calleeNumber, callee?.name ?? null]);
    if (callee && callee.id !== caller?.id) rows.push([callee.id, 'IN', call.callerNumber, caller?.name ?? null]);
    const recordingIds: number[] = [];
    for (const [userId, direction, remote, cnam] of rows) {
      const r = await tx.query<{ id: number }>(
        `INSERT INTO call_recordings (user_id, direction, remote_party, cnam, started_at, duration, media_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [userId, direction, remote, cnam, call.startedAt.toISOString(), Math.round(audio.durationMs / 1000), mediaId],
      );
      recordingIds.push(r.rows[0]!.id);
    }
    return { mediaId, recordingIds, durationMs: audio.durationMs, segments: 0 };
  });
}

/**
 * Converts and indexes a finished call's recording, then removes rtpengine's files. Never throws:
 * a recording that cannot be converted is logged, and its files and a note of the call are kept,
 * so that the next start of the server tries again (as it does for one it was stopped in the middle of).
 */
export async function indexCallRecording(
  db: Db,
  runtimeDir: string,
  call: FinishedCall,
  log: Log,
  opts: { closeTimeoutMs?: number } = {},
): Promise<IndexedRecording | null> {
  const { pending } = recordingDirs(runtimeDir);
  const note = path.join(pending, pendingName(call.callId));
  // Claimed by this process while it converts: another API process starting meanwhile must not take it.
  const claimed = `${note}.${process.pid}`;
  await mkdir(pending, { recursive: true });
  await writeFile(claimed, JSON.stringify(call));
  const { result, retry } = await convert(db, runtimeDir, call, log, opts);
  if (retry) await rename(claimed, note);
  else await rm(claimed, { force: true });
  return result;
}

async function convert(
  db: Db,
  runtimeDir: string,
  call: FinishedCall,
  log: Log,
  opts: { closeTimeoutMs?: number },
): Promise<{ result: IndexedRecording | null; retry: boolean }> {
  const names = await segmentFiles(runtimeDir, call.callId);
  if (!names.length) {
    log.warn({ callId: call.callId }, 'recorded call has no recording files');
    return { result: null, retry: false };
  }
  try {
    await waitUntilClosed(runtimeDir, names, opts.closeTimeoutMs ?? CLOSE_TIMEOUT_MS);
    const audio = await recordingWav(runtimeDir, names);
    if (!audio) {
      log.warn({ callId: call.callId, files: names }, 'recorded call has no audio; files kept');
      return { result: null, retry: false };
    }
    const stored = await storeCallRecording(db, call, audio);
    const { pcaps } = recordingDirs(runtimeDir);
    for (const n of names) {
      await rm(path.join(pcaps, n), { force: true });
      await rm(metadataOf(runtimeDir, n), { force: true });
    }
    log.info({ callId: call.callId, segments: names.length, durationMs: audio.durationMs, recordings: stored.recordingIds }, 'call recording indexed');
    return { result: { ...stored, segments: names.length }, retry: false };
  } catch (err) {
    log.warn({ err, callId: call.callId, files: names }, 'call recording could not be converted; files kept');
    return { result: null, retry: true };
  }
}

/** A note claimed by a process that is gone (it was killed while converting): free to take again. */
function orphaned(claim: string): boolean {
  const pid = Number(claim);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * At start: converts the recordings of calls that ended while the server was stopping, whose
 * conversion failed before, or whose converting process was killed. Each note is first renamed to
 * this process's name, so that of two servers starting at once only one takes it, and none takes a
 * note a live process is converting (the API processes of one machine share the runtime folder).
 */
export async function resumePendingRecordings(db: Db, runtimeDir: string, log: Log): Promise<number> {
  const { pending } = recordingDirs(runtimeDir);
  const notes = (await readdir(pending).catch(() => [] as string[])).filter((n) => {
    const m = /^[0-9a-f]{32}\.json(?:\.(\d+))?$/.exec(n);
    return m !== null && (m[1] === undefined || orphaned(m[1]));
  });
  let done = 0;
  for (const n of notes) {
    const claimed = path.join(pending, `${n.replace(/\.\d+$/, '')}.${process.pid}`);
    try {
      await rename(path.join(pending, n), claimed);
    } catch {
      continue; // Another server took it.
    }
    try {
      const saved = JSON.parse(await readFile(claimed, 'utf8')) as Omit<FinishedCall, 'startedAt'> & { startedAt: string };
      log.info({ callId: saved.callId }, 'converting a recording left from before');
      if (await indexCallRecording(db, runtimeDir, { ...saved, startedAt: new Date(saved.startedAt) }, log)) done++;
    } catch (err) {
      log.warn({ err, note: n }, 'unreadable note of a recording to convert; left aside');
      continue;
    }
    await rm(claimed, { force: true });
  }
  return done;
}
