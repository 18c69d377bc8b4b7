import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { buildApp } from '../../server/app';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { indexCallRecording, recordingDirs, resumePendingRecordings } from '../../server/calls/live-recordings';
import { readWav } from '../../server/media/wav';
import { loadOrCreateSecret, SECRET_NAMES } from '../../server/services/layout';
import { CallRecordingsPage, type CallRecordingWire } from '../../src/wire/callRecordings';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

/**
 * A call recorded by rtpengine ends and its recording appears in the parties' call recordings.
 * rtpengine is not running here: its files are the real segments of a recorded, paused and resumed
 * browser-to-browser call (server/media/fixtures), put where rtpengine writes them, and Kamailio's
 * reports are posted as Kamailio posts them.
 */
const FIXTURES = path.join(import.meta.dirname, '..', '..', 'server', 'media', 'fixtures');
/** Two browsers' Opus, recorded 2.02 s, paused 1 s, recorded 1.57 s. */
const SEGMENTS = [
  { fixture: 'opus-browsers-segment2.pcap', hex: '0a0a0a0a0a0a0a0a' },
  { fixture: 'opus-browsers-segment1.pcap', hex: 'b1b1b1b1b1b1b1b1' },
];

describe.each(backends)('live call recordings ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  let bob: string;
  let carol: string;
  let internal: Record<string, string>;
  beforeAll(async () => {
    t = await startTestServer(backend);
    alice = await t.login('alice');
    bob = await t.login('bob');
    carol = await t.login('carol');
    internal = { 'x-uc-internal': (await loadOrCreateSecret(t.runtimeDir, SECRET_NAMES.internalApi)).toString('base64url') };
  });
  afterAll(() => t?.close());

  const callEvent = async (event: 'start' | 'end', callId: string, extra: Record<string, string | number> = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/internal/sip/call-events',
      headers: internal,
      payload: { event, call_id: callId, caller: '1001', callee: '1002', t0: Math.floor(Date.now() / 1000), ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** What rtpengine leaves for a recorded call: its segments and their closed metadata. */
  async function rtpengineFiles(callId: string, segments: ReadonlyArray<{ fixture: string; hex: string }>, closed = true) {
    const dirs = recordingDirs(t.runtimeDir);
    await mkdir(dirs.pcaps, { recursive: true });
    await mkdir(dirs.metadata, { recursive: true });
    for (const s of segments) {
      const name = `${callId}-${s.hex}`;
      if (s.fixture.startsWith('/')) await writeFile(path.join(dirs.pcaps, `${name}.pcap`), Buffer.from(s.fixture));
      else await copyFile(path.join(FIXTURES, s.fixture), path.join(dirs.pcaps, `${name}.pcap`));
      await writeFile(path.join(dirs.metadata, `rtpengine-meta-${name}.txt`), `${path.join(dirs.pcaps, `${name}.pcap`)}\n\n\ncall start time: x\n${closed ? 'call end time: x\n' : ''}`);
    }
  }

  const files = async (callId: string) => (await readdir(recordingDirs(t.runtimeDir).pcaps).catch(() => [] as string[])).filter((f) => f.startsWith(callId));

  const list = async (token: string): Promise<CallRecordingWire[]> => {
    const res = await t.app.inject({ url: '/v1/call-recordings?limit=500', headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return CallRecordingsPage.parse(res.json()).items;
  };

  /** Marks the live call as recorded in `segments` segments, as the recording control does once rtpengine agreed. */
  const recorded = (callId: string, segments: number) =>
    t.db.query(`UPDATE live_calls SET recording = 'recording', recording_segments = $2 WHERE sip_call_id = $1`, [callId, segments]);

  it('a recorded call that ends is listed for both parties, paused stretch left out, and plays with ranges for its owners only', async () => {
    const callId = 'live-rec-1';
    const before = { alice: (await list(alice)).length, carol: (await list(carol)).length };
    await callEvent('start', callId);
    await recorded(callId, 2);
    await rtpengineFiles(callId, SEGMENTS);
    await callEvent('end', callId, { duration: 5 });

    const newest = async (token: string) => (await list(token)).find((r) => r.timestamp >= new Date(Date.now() - 60_000).toISOString() && r.duration === 4);
    await expect.poll(() => newest(alice), { timeout: 15_000 }).toBeDefined();
    const mine = (await newest(alice))!;
    // 2.02 s + 1.57 s recorded: 4 s, not the 4.5 s the call lasted while recording.
    expect(mine).toMatchObject({ direction: 'OUT', remoteParty: '1002', cnam: 'Bob Martinez', duration: 4 });
    const theirs = (await newest(bob))!;
    expect(theirs).toMatchObject({ direction: 'IN', remoteParty: '1001', cnam: 'Alice Nguyen', duration: 4 });
    expect(theirs.recording_id).not.toBe(mine.recording_id);
    expect((await list(alice)).length).toBe(before.alice + 1);
    expect((await list(carol)).length).toBe(before.carol);

    const media = await t.app.inject({ url: mine.media_url, headers: bearer(alice) });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toBe('audio/wav');
    const info = readWav(media.rawPayload);
    expect(info).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    expect(info.durationMs).toBeGreaterThan(3550);
    expect(info.durationMs).toBeLessThan(3650);
    // Sound from both segments: the beeps of the resumed part are in the second half.
    const pcm = media.rawPayload.subarray(info.dataOffset);
    const loudAfter = (fromSec: number) => {
      let peak = 0;
      for (let i = Math.floor(fromSec * 16_000) * 2; i + 1 < pcm.length; i += 2) peak = Math.max(peak, Math.abs(pcm.readInt16LE(i)));
      return peak;
    };
    expect(loudAfter(2.1)).toBeGreaterThan(3000);

    const ranged = await t.app.inject({ url: mine.media_url, headers: { ...bearer(alice), range: 'bytes=0-43' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.toString('ascii', 0, 4)).toBe('RIFF');
    expect((await t.app.inject({ url: theirs.media_url, headers: bearer(bob) })).statusCode).toBe(200);
    // The owner-only rule: bob's own recording is his, alice's is not.
    expect((await t.app.inject({ url: mine.media_url, headers: bearer(bob) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: mine.media_url, headers: bearer(carol) })).statusCode).toBe(404);
    // rtpengine's files are gone once indexed.
    await expect.poll(() => files(callId)).toEqual([]);
  });

  it('a call with an outside party: only the user gets it, with the outside number', async () => {
    const callId = 'live-rec-outside';
    await callEvent('start', callId, { caller: '1002', callee: '5551234567' });
    await recorded(callId, 1);
    await rtpengineFiles(callId, SEGMENTS.slice(1));
    await callEvent('end', callId, { caller: '1002', callee: '5551234567', duration: 3 });
    await expect.poll(async () => (await list(bob)).find((r) => r.remoteParty === '5551234567'), { timeout: 15_000 }).toMatchObject({ direction: 'OUT', cnam: null, duration: 2 });
  });

  it('a call that was never recorded adds nothing, and a repeated end report indexes once', async () => {
    const callId = 'live-rec-none';
    const count = (await list(alice)).length;
    await callEvent('start', callId);
    await rtpengineFiles(callId, SEGMENTS.slice(1));
    await callEvent('end', callId, { duration: 2 });
    await callEvent('end', callId, { duration: 2 });
    // Nothing was recorded by us: the files are not ours to take (and stay).
    expect(await files(callId)).toHaveLength(1);
    expect((await list(alice)).length).toBe(count);
  });

  it('a recording that cannot be converted is logged and its files are kept', async () => {
    const callId = 'live-rec-broken';
    await rtpengineFiles(callId, [{ fixture: '/not a pcap at all', hex: 'dead' }]);
    const log = { info: vi.fn(), warn: vi.fn() };
    const count = (await list(alice)).length;
    const result = await indexCallRecording(t.db, t.runtimeDir, { callId, startedAt: new Date(), callerUserId: await t.userId('alice'), calleeUserId: null, callerNumber: '1001', calleeNumber: '1002' }, log);
    expect(result).toBeNull();
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ callId, files: [`${callId}-dead.pcap`] }), expect.stringMatching(/could not be converted; files kept/));
    expect(await files(callId)).toEqual([`${callId}-dead.pcap`]);
    expect((await list(alice)).length).toBe(count);
    // Kept for the next start: cleared here so that the restart test below sees only its own.
    await rm(recordingDirs(t.runtimeDir).pending, { recursive: true, force: true });
  });

  it('a failed conversion is tried again when the server next starts, and then indexed once', async () => {
    const callId = 'live-rec-retry';
    const log = { info: vi.fn(), warn: vi.fn() };
    const pending = async () => readdir(recordingDirs(t.runtimeDir).pending).catch(() => [] as string[]);
    await rtpengineFiles(callId, [{ fixture: '/cut short', hex: 'beef' }]);
    const call = { callId, startedAt: new Date('2026-03-19T10:00:00Z'), callerUserId: await t.userId('carol'), calleeUserId: await t.userId('alice'), callerNumber: '1003', calleeNumber: '1001' };
    expect(await indexCallRecording(t.db, t.runtimeDir, call, log)).toBeNull();
    expect(await pending()).toHaveLength(1);
    // The file turns out fine after all (say, the disk was full): the next start converts it.
    await rtpengineFiles(callId, [{ fixture: 'opus-browsers-segment1.pcap', hex: 'beef' }]);
    const before = (await list(alice)).length;
    const restarted = await buildApp({ db: t.db, runtimeDir: t.runtimeDir });
    await restarted.ready();
    await restarted.close(); // Waits for the conversions it started.
    expect(await pending()).toEqual([]);
    const mine = (await list(alice)).filter((r) => r.timestamp === '2026-03-19T10:00:00.000Z');
    expect(mine).toMatchObject([{ direction: 'IN', remoteParty: '1003', cnam: 'Carol Okafor', duration: 2 }]);
    expect((await list(alice)).length).toBe(before + 1);
    expect(await files(callId)).toEqual([]);
    // Nothing left to do: another start indexes nothing.
    expect(await resumePendingRecordings(t.db, t.runtimeDir, log)).toBe(0);
  });

  it('a conversion under way is not taken by another API process starting meanwhile; one whose process was killed is', async () => {
    const log = { info: vi.fn(), warn: vi.fn() };
    const pending = async () => readdir(recordingDirs(t.runtimeDir).pending).catch(() => [] as string[]);
    const carolId = await t.userId('carol');
    const callOf = (callId: string, day: string) => ({ callId, startedAt: new Date(`${day}T10:00:00Z`), callerUserId: carolId, calleeUserId: null, callerNumber: '1003', calleeNumber: '5550101' });
    const at = async (day: string) => (await list(carol)).filter((r) => r.timestamp === `${day}T10:00:00.000Z`);
    // Still open at rtpengine: the conversion waits for the file to settle (2 s), its note on disk.
    await rtpengineFiles('live-rec-busy', SEGMENTS.slice(1), false);
    const converting = indexCallRecording(t.db, t.runtimeDir, callOf('live-rec-busy', '2026-03-17'), log);
    await expect.poll(pending).toHaveLength(1);
    expect(await resumePendingRecordings(t.db, t.runtimeDir, log)).toBe(0);
    expect(await converting).toMatchObject({ recordingIds: [expect.any(Number)] });
    expect(await at('2026-03-17')).toHaveLength(1);
    // Nobody else went at its files (and, finding them gone, left a note to try again).
    expect(log.warn).not.toHaveBeenCalled();
    expect(await pending()).toEqual([]);
    // A note claimed by a process that no longer exists (pid above Linux's pid_max).
    await rtpengineFiles('live-rec-orphan', SEGMENTS.slice(1));
    const name = `${createHash('sha256').update('live-rec-orphan').digest('hex').slice(0, 32)}.json.999999999`;
    await writeFile(path.join(recordingDirs(t.runtimeDir).pending, name), JSON.stringify(callOf('live-rec-orphan', '2026-03-16')));
    expect(await resumePendingRecordings(t.db, t.runtimeDir, log)).toBe(1);
    expect(await at('2026-03-16')).toHaveLength(1);
    expect(await pending()).toEqual([]);
  });

  it('waits for rtpengine to finish a segment (no end in its metadata yet) before converting', async () => {
    const callId = 'live-rec-open';
    await rtpengineFiles(callId, SEGMENTS.slice(1), false);
    const log = { info: vi.fn(), warn: vi.fn() };
    const started = Date.now();
    const result = await indexCallRecording(t.db, t.runtimeDir, { callId, startedAt: new Date(), callerUserId: await t.userId('carol'), calleeUserId: null, callerNumber: '1003', calleeNumber: '5550100' }, log);
    // The file did not grow: taken as complete after it settled (2 s), not at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(result).toMatchObject({ segments: 1, recordingIds: [expect.any(Number)] });
  });
});
