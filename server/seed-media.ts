/**
 * Voicemail and call recordings for the demo users, with real speech: every message and recorded
 * call is a WAV file spoken by espeak-ng at seed time (Debian package `espeak-ng`). Without it the
 * seed fails and says so: a demo whose players play silence would hide broken audio.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prng } from './prng';
import type { Queryable } from './db/types';
import { speak } from './media/speech';
import { joinWavs, readWav } from './media/wav';

export { speak, SpeechUnavailableError } from './media/speech';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What the demo's callers say. The transcript is the text itself. */
export const VOICEMAIL_SCRIPTS: readonly string[] = [
  'Hi, this is about the quote you sent on Monday. The numbers look good, but I have a question about the delivery dates. Please call me back when you get a chance.',
  'Hello, just a quick reminder that our meeting tomorrow has moved to two thirty. Same room as last time. Thanks, bye.',
  'Good morning. Your order has shipped and should arrive on Thursday. If anything is missing, call us at the number on the invoice.',
  'Hey, it is me. Can you send me the slides from this morning? I want to go through them before the client call. Thanks!',
  'Hi there, I am returning your call about the support ticket. The issue should be fixed now, but let me know if you still see the error.',
  'This is a message for the accounts team. The invoice for March is still open. Could someone confirm when the payment will go out?',
  'Hello, I would like to book a demo of your product for next week. Tuesday or Wednesday afternoon would work best for us.',
  'Hi, quick one. The printer on the second floor is out of toner again. I have ordered more, it should be here on Friday.',
];

/** Recorded calls: two speakers in turn (the far end in another voice). */
export const RECORDING_SCRIPTS: ReadonlyArray<readonly string[]> = [
  [
    'Thank you for calling Acme, how can I help?',
    'Hi, I am calling about my last invoice. I think I was charged twice.',
    'I am sorry about that. Let me check. Yes, I can see the double charge. I will refund it today.',
    'Great, thank you very much.',
  ],
  [
    'Hello, this is Acme support.',
    'Hi, the new headset does not work with my laptop.',
    'Have you tried the other USB port? Sometimes the front ports do not give enough power.',
    'Oh, that worked. Thanks!',
  ],
  [
    'Hi, it is about the contract renewal. Do you have a minute?',
    'Sure. We would like to keep the same plan, but add ten more users.',
    'No problem. I will send you the updated agreement this afternoon.',
  ],
  [
    'Good afternoon, you have reached the sales team.',
    'Hello. I saw your offer for the conference package and would like to know more.',
    'Of course. The package includes the hall, catering and a video link for remote guests.',
    'Sounds good. Please send me a quote.',
  ],
];

export interface DemoClip {
  bytes: Buffer;
  sha256: string;
  durationMs: number;
  text: string;
}

let clips: Promise<{ voicemail: DemoClip[]; recording: DemoClip[] }> | null = null;

/** Every clip of the demo, spoken once per process (the test suites seed many databases). */
export function demoClips(): Promise<{ voicemail: DemoClip[]; recording: DemoClip[] }> {
  clips ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'uc-speech-'));
    try {
      const clip = (bytes: Buffer, text: string): DemoClip => ({
        bytes,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        durationMs: readWav(bytes).durationMs,
        text,
      });
      const voicemail = await Promise.all(VOICEMAIL_SCRIPTS.map(async (text) => clip(await speak(text, 'en-us', dir), text)));
      const recording = await Promise.all(
        RECORDING_SCRIPTS.map(async (lines) => {
          const spoken = await Promise.all(lines.map((line, i) => speak(line, i % 2 ? 'en-gb' : 'en-us', dir)));
          return clip(joinWavs(spoken, 400), lines.join(' '));
        }),
      );
      return { voicemail, recording };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  clips.catch(() => (clips = null));
  return clips;
}

/** Stores a clip once; returns its id. */
export async function storeBlob(tx: Queryable, clip: DemoClip): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO media_blobs (sha256, content_type, duration_ms, bytes) VALUES ($1, 'audio/wav', $2, $3)
     ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256 RETURNING id`,
    [clip.sha256, clip.durationMs, clip.bytes],
  );
  return rows[0]!.id;
}

export interface MediaCaller {
  number: string;
  name: string | null;
}

/** Outside callers (555-01XX numbers are reserved for fiction). */
const OUTSIDE_CALLERS: readonly MediaCaller[] = [
  { number: '+12125550143', name: 'Grace Whitfield' },
  { number: '+13125550178', name: 'Contoso Ltd' },
  { number: '+14155550116', name: 'Jonas Berg' },
  { number: '+16175550122', name: null },
  { number: '+17185550190', name: 'Fabrikam Supplies' },
  { number: '+12065550137', name: 'Maria Lopez' },
];


/** Hours before now of each demo voicemail: today, yesterday, this week, and older. */
const VOICEMAIL_AGES_H = [0.3, 3, 26, 50, 75, 130, 190, 260, 400, 720, 1100, 1500];
/** Days before now of each demo recording: some older than the 3-month limit of the list. */
const RECORDING_AGES_D = [0.1, 0.5, 1.2, 2, 4, 6, 9, 12, 16, 20, 27, 35, 48, 62, 80, 88, 100, 115];

export interface MediaUser {
  id: number;
  extension: string;
  username: string;
}

export async function seedDemoMedia(tx: Queryable, users: readonly MediaUser[], colleagues: readonly MediaCaller[], now: number): Promise<{ voicemails: number; recordings: number }> {
  const { voicemail, recording } = await demoClips();
  // One after the other: a transaction is one connection, which runs one query at a time anyway
  // (node-postgres deprecates queueing them, and pg 9 refuses it).
  const vmIds: Awaited<ReturnType<typeof storeBlob>>[] = [];
  for (const c of voicemail) vmIds.push(await storeBlob(tx, c));
  const recIds: Awaited<ReturnType<typeof storeBlob>>[] = [];
  for (const c of recording) recIds.push(await storeBlob(tx, c));
  const vmRows: unknown[][] = [];
  const recRows: unknown[][] = [];
  for (const u of users) {
    const rng = prng(u.id * 7919 + u.username.length);
    const callers = [...OUTSIDE_CALLERS, ...colleagues.filter((c) => c.number !== u.extension)];
    VOICEMAIL_AGES_H.forEach((hours, i) => {
      const clipIndex = (i + u.id) % voicemail.length;
      const clip = voicemail[clipIndex]!;
      const caller = callers[Math.floor(rng() * callers.length)]!;
      // The newest few are unread; one message is still being transcribed and one could not be.
      const status = i < 4 || i === 6 ? 'UNREAD' : 'READ';
      const state = i === 1 ? 'In Progress' : i === 5 ? 'Failed' : i === 8 ? 'None' : 'Succeeded';
      vmRows.push([
        u.id,
        u.extension,
        caller.number,
        caller.name,
        new Date(now - hours * HOUR_MS - Math.floor(rng() * 600_000)).toISOString(),
        Math.max(1, Math.round(clip.durationMs / 1000)),
        status,
        state,
        state === 'Succeeded' ? clip.text : null,
        vmIds[clipIndex],
      ]);
    });
    RECORDING_AGES_D.forEach((days, i) => {
      const clipIndex = (i + u.id) % recording.length;
      const clip = recording[clipIndex]!;
      const party = callers[Math.floor(rng() * callers.length)]!;
      recRows.push([
        u.id,
        rng() < 0.55 ? 'IN' : 'OUT',
        party.number,
        party.name,
        new Date(now - days * DAY_MS - Math.floor(rng() * HOUR_MS)).toISOString(),
        Math.max(1, Math.round(clip.durationMs / 1000)),
        recIds[clipIndex],
      ]);
    });
  }
  await insertRows(tx, 'voicemails', [
    ['user_id', 'int'], ['mailbox', 'text'], ['caller_number', 'text'], ['caller_name', 'text'], ['received_at', 'timestamptz'],
    ['duration', 'int'], ['status', 'text'], ['transcript_state', 'text'], ['transcript', 'text'], ['media_id', 'int'],
  ], vmRows);
  await insertRows(tx, 'call_recordings', [
    ['user_id', 'int'], ['direction', 'text'], ['remote_party', 'text'], ['cnam', 'text'], ['started_at', 'timestamptz'],
    ['duration', 'int'], ['media_id', 'int'],
  ], recRows);
  return { voicemails: vmRows.length, recordings: recRows.length };
}

/** Bulk insert through unnest(), one array per column. */
export async function insertRows(tx: Queryable, table: string, columns: Array<[string, string]>, rows: unknown[][], chunk = 5000): Promise<void> {
  for (let start = 0; start < rows.length; start += chunk) {
    const slice = rows.slice(start, start + chunk);
    const arrays = columns.map((_, c) => slice.map((row) => row[c]));
    const unnest = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
    await tx.query(`INSERT INTO ${table} (${columns.map(([n]) => n).join(', ')}) SELECT * FROM unnest(${unnest})`, arrays);
  }
}

/** Many voicemails and recordings for one user (benchmarks, trying the lists at scale); reuses the demo's audio. */
export async function addBulkMedia(tx: Queryable, userId: number, count: number, now = Date.now()): Promise<void> {
  const { voicemail, recording } = await demoClips();
  const vmBlob = await storeBlob(tx, voicemail[0]!);
  const recBlob = await storeBlob(tx, recording[0]!);
  const { rows } = await tx.query<{ extension: string }>('SELECT extension FROM users WHERE id = $1', [userId]);
  const mailbox = rows[0]?.extension ?? '0';
  const rng = prng(userId * 31 + count);
  const vm: unknown[][] = [];
  const rec: unknown[][] = [];
  for (let i = 0; i < count; i++) {
    const caller = OUTSIDE_CALLERS[i % OUTSIDE_CALLERS.length]!;
    const at = new Date(now - (i + 1) * 600_000 - Math.floor(rng() * 300_000)).toISOString();
    vm.push([userId, mailbox, caller.number, caller.name, at, 5 + (i % 120), i % 3 ? 'READ' : 'UNREAD', 'Succeeded', `${VOICEMAIL_SCRIPTS[i % VOICEMAIL_SCRIPTS.length]} (${i})`, vmBlob]);
    rec.push([userId, i % 2 ? 'IN' : 'OUT', caller.number, caller.name, at, 10 + (i % 300), recBlob]);
  }
  await insertRows(tx, 'voicemails', [
    ['user_id', 'int'], ['mailbox', 'text'], ['caller_number', 'text'], ['caller_name', 'text'], ['received_at', 'timestamptz'],
    ['duration', 'int'], ['status', 'text'], ['transcript_state', 'text'], ['transcript', 'text'], ['media_id', 'int'],
  ], vm);
  await insertRows(tx, 'call_recordings', [
    ['user_id', 'int'], ['direction', 'text'], ['remote_party', 'text'], ['cnam', 'text'], ['started_at', 'timestamptz'], ['duration', 'int'], ['media_id', 'int'],
  ], rec);
}
