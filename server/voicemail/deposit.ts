import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { metadataOf, recordingDirs, segmentFiles, waitUntilClosed } from '../calls/live-recordings';
import type { Db } from '../db/types';
import { decodeRtpPcap, type RtpStream } from '../media/rtp-pcap';
import { pcm16Wav } from '../media/wav';
import { BaresipControl, type BaresipEvent } from '../services/baresip-control';
import type { ServicesConfig } from '../services/layout';
import { startRecording, stopRecording } from '../services/recording';
import { greetingFiles, readGreetingInfo, type GreetingInfo } from '../services/voicemail';
import { announcerUser, greetingOnlyUser, voicemailAccount } from '../services/voicemail-accounts';
import { ucSettingsOf } from '../users/uc-settings-repository';
import type { Notices, VoicemailNotifier } from './notify';

/**
 * Leaving a message: the API server's side of the voicemail phone (server/services/voicemail.ts).
 *
 * It holds baresip's control connection, gives every mailbox (a user's extension) an auto-answering
 * account, and follows the calls: when baresip answers one, rtpengine starts recording it; when it
 * ends, the caller's side of the recording after the greeting's tone is the message, filed in the
 * mailbox as a new (unread) voicemail. Calls go to voicemail only while this is connected, so a
 * caller is never sent to a mailbox nobody answers.
 */
export interface VoicemailBox {
  /** Connected to the voicemail phone: calls may be sent to voicemail. */
  readonly ready: boolean;
  /** The phone answers for this mailbox (opened on demand for users created after the start). */
  open(mailbox: string): Promise<boolean>;
  /** The phone answers `greeting-<mailbox>` calls: the greeting, then it hangs up (no message). */
  openGreeting(mailbox: string): Promise<boolean>;
  /** The phone answers `announce-<extension>` calls with early media only (find-me's announcements). */
  openAnnouncer(extension: string): Promise<boolean>;
  close(): void;
}

/** A message shorter than this (a caller who hung up at the tone) is not kept. */
export const MIN_MESSAGE_MS = 1000;
const RECONNECT_MS = 1000;

interface Deposit {
  callId: string;
  mailbox: string;
  callerNumber: string;
  callerName: string | null;
  answeredAt: Date;
}

const userOf = (uri: string | undefined) => /^sips?:([^@;>]+)@/.exec(uri ?? '')?.[1] ?? null;

/** The caller's side: the stream that did not come from the voicemail phone's own RTP ports. */
export function callerStream(streams: readonly RtpStream[], phonePorts: readonly [number, number]): RtpStream | null {
  const fromPhone = (s: RtpStream) => {
    const port = Number(s.src.split(':').pop());
    return port >= phonePorts[0] && port <= phonePorts[1];
  };
  const theirs = streams.filter((s) => !fromPhone(s));
  // One caller stream normally; after a re-INVITE (hold, transfer) the longest one.
  return theirs.sort((a, b) => b.samples.length - a.samples.length)[0] ?? null;
}

/**
 * The message: the caller's audio from the end of the greeting's tone. The greeting starts with
 * the phone's first packet, so the tone ends `messageStartsMs` after it.
 */
export function messageAudio(streams: readonly RtpStream[], phonePorts: readonly [number, number], greeting: GreetingInfo): { wav: Buffer; durationMs: number } | null {
  const caller = callerStream(streams, phonePorts);
  if (!caller) return null;
  const phone = streams.find((s) => s !== caller && !callerStream([s], phonePorts));
  const greetingStart = phone?.firstPacketMs ?? caller.firstPacketMs;
  const skipMs = Math.max(0, greetingStart + greeting.messageStartsMs - caller.firstPacketMs);
  const samples = caller.samples.subarray(Math.min(caller.samples.length, Math.round((skipMs / 1000) * caller.sampleRate)));
  const durationMs = Math.round((samples.length / caller.sampleRate) * 1000);
  if (durationMs < MIN_MESSAGE_MS) return null;
  return { wav: pcm16Wav(samples, caller.sampleRate), durationMs };
}

interface Filed {
  id: number;
  userId: number;
  callerName: string | null;
  /** The owner's notification settings as the message was filed: a change after it applies to the next one. */
  notices: Notices;
}

async function fileMessage(db: Db, d: Deposit, audio: { wav: Buffer; durationMs: number }): Promise<Filed | null> {
  const sha256 = createHash('sha256').update(audio.wav).digest('hex');
  return db.transaction(async (tx) => {
    const owner = await tx.query<{ id: number }>('SELECT id FROM users WHERE extension = $1 ORDER BY id LIMIT 1', [d.mailbox]);
    const userId = owner.rows[0]?.id;
    if (!userId) return null;
    const caller = await tx.query<{ name: string }>(`SELECT trim(first_name || ' ' || last_name) AS name FROM users WHERE extension = $1 ORDER BY id LIMIT 1`, [d.callerNumber]);
    const blob = await tx.query<{ id: number }>(
      `INSERT INTO media_blobs (sha256, content_type, duration_ms, bytes) VALUES ($1, 'audio/wav', $2, $3)
       ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256 RETURNING id`,
      [sha256, audio.durationMs, audio.wav],
    );
    // No transcriber runs here (none good enough ships in Debian or npm; see docs/DECISIONS.md): 'None'.
    const vm = await tx.query<{ id: number }>(
      `INSERT INTO voicemails (user_id, mailbox, caller_number, caller_name, received_at, duration, status, transcript_state, transcript, media_id)
       VALUES ($1, $2, $3, $4, $5, $6, 'UNREAD', 'None', NULL, $7) RETURNING id`,
      [userId, d.mailbox, d.callerNumber, caller.rows[0]?.name || d.callerName, d.answeredAt.toISOString(), Math.max(1, Math.round(audio.durationMs / 1000)), blob.rows[0]!.id],
    );
    const { sms_notification, email_notification } = await ucSettingsOf(tx, userId);
    return { id: vm.rows[0]!.id, userId, callerName: caller.rows[0]?.name || d.callerName, notices: { sms_notification, email_notification } };
  });
}

export function startVoicemailBox(db: Db, cfg: ServicesConfig, log: FastifyBaseLogger, notify?: VoicemailNotifier): VoicemailBox {
  let control: BaresipControl | null = null;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let warned = false;
  const mailboxes = new Set<string>();
  const greetings = new Set<string>();
  const announcers = new Set<string>();
  const deposits = new Map<string, Deposit>();
  const phonePorts = [cfg.ports.voicemailRtpMin, cfg.ports.voicemailRtpMax] as const;

  async function addAccount(c: BaresipControl, account: string, mailbox: string): Promise<boolean> {
    try {
      await c.command('uanew', account);
    } catch (err) {
      // Already there (baresip outlived an earlier connection of ours) is fine.
      if (!/exist/i.test(String(err))) {
        log.warn({ err, mailbox }, 'voicemail: mailbox not opened');
        return false;
      }
    }
    return true;
  }

  async function openMailbox(c: BaresipControl, mailbox: string): Promise<boolean> {
    if (mailboxes.has(mailbox)) return true;
    if (!(await addAccount(c, `<sip:${mailbox}@${cfg.domain}>;regint=0;answermode=auto`, mailbox))) return false;
    mailboxes.add(mailbox);
    return true;
  }

  /**
   * Its own account, with a microphone that is the greeting alone: baresip hangs up when the file
   * ends. Not a mailbox, so onEvent never records or files what such a call hears.
   */
  async function openGreeting(c: BaresipControl, mailbox: string): Promise<boolean> {
    if (greetings.has(mailbox)) return true;
    const account = `<sip:${greetingOnlyUser(mailbox)}@${cfg.domain}>;regint=0;answermode=auto;audio_source=aufile,${greetingFiles(cfg).only}`;
    if (!(await addAccount(c, account, mailbox))) return false;
    greetings.add(mailbox);
    return true;
  }

  /**
   * answermode=early: 180, then 183 Session Progress with SDP, and nothing more until Kamailio
   * cancels the branch (someone answered, or the attempt's ring time ran out). Its SDP gives the
   * caller early media; what they hear is rtpengine's (play_media), not this phone's: baresip 1.0
   * sends no audio before it answers.
   */
  async function openAnnouncer(c: BaresipControl, extension: string): Promise<boolean> {
    if (announcers.has(extension)) return true;
    if (!(await addAccount(c, `<sip:${announcerUser(extension)}@${cfg.domain}>;regint=0;answermode=early`, extension))) return false;
    announcers.add(extension);
    return true;
  }

  async function finish(d: Deposit): Promise<void> {
    await stopRecording(cfg, d.callId).catch(() => undefined); // Usually already gone with the call.
    const names = await segmentFiles(cfg.runtimeDir, d.callId);
    if (!names.length) {
      log.warn({ callId: d.callId }, 'voicemail: the call was not recorded');
      return;
    }
    await waitUntilClosed(cfg.runtimeDir, names, 20_000);
    const { pcaps } = recordingDirs(cfg.runtimeDir);
    const greeting = await readGreetingInfo(cfg);
    const streams = (await Promise.all(names.map(async (n) => decodeRtpPcap(await readFile(path.join(pcaps, n)), { opusSampleRate: 16_000 })))).flat();
    const audio = messageAudio(streams, phonePorts, greeting);
    const filed = audio ? await fileMessage(db, d, audio) : null;
    const id = filed?.id ?? null;
    for (const n of names) {
      await rm(path.join(pcaps, n), { force: true });
      await rm(metadataOf(cfg.runtimeDir, n), { force: true });
    }
    log.info({ callId: d.callId, mailbox: d.mailbox, voicemailId: id, durationMs: audio?.durationMs ?? 0 }, id ? 'voicemail: message left' : 'voicemail: no message (hung up at the tone)');
    if (filed && audio && notify) {
      await notify({ userId: filed.userId, voicemailId: filed.id, callerNumber: d.callerNumber, callerName: filed.callerName, notices: filed.notices, durationMs: audio.durationMs, receivedAt: d.answeredAt, wav: audio.wav });
    }
  }

  function onEvent(e: BaresipEvent): void {
    if (e.class !== 'call' || !e.id) return;
    if (e.type === 'CALL_ESTABLISHED') {
      // A greeting-only call (repeat_greeting) hears the greeting and ends: nothing to record or file.
      const account = voicemailAccount(userOf(e.accountaor));
      if (!account || account.greetingOnly || !mailboxes.has(account.mailbox)) return;
      const { mailbox } = account;
      const d: Deposit = { callId: e.id, mailbox, callerNumber: userOf(e.peeruri) ?? 'anonymous', callerName: e.peerdisplayname?.trim() || null, answeredAt: new Date() };
      deposits.set(e.id, d);
      startRecording(cfg, e.id).catch((err: unknown) => log.warn({ err, callId: e.id }, 'voicemail: recording did not start'));
    } else if (e.type === 'CALL_CLOSED') {
      const d = deposits.get(e.id);
      if (!d) return;
      deposits.delete(e.id);
      finish(d).catch((err: unknown) => log.warn({ err, callId: d.callId }, 'voicemail: message not filed; recording kept'));
    }
  }

  async function connect(): Promise<void> {
    timer = null;
    if (closed) return;
    const c = await BaresipControl.connect(cfg.ports.voicemailCtrl, { keepEvents: false });
    if (closed) return c?.close();
    if (!c) {
      if (!warned) log.info({ port: cfg.ports.voicemailCtrl }, 'voicemail phone not reachable yet; calls are not sent to voicemail until it is');
      warned = true;
      timer = setTimeout(() => void connect(), RECONNECT_MS);
      return;
    }
    c.onEvent(onEvent);
    c.onClose(() => {
      if (control === c) control = null;
      mailboxes.clear();
      greetings.clear();
      announcers.clear();
      if (!closed) timer = setTimeout(() => void connect(), RECONNECT_MS);
    });
    const { rows } = await db.query<{ extension: string }>(`SELECT DISTINCT extension FROM users WHERE extension IS NOT NULL AND extension <> ''`);
    for (const r of rows) await openMailbox(c, r.extension);
    control = c;
    warned = false;
    log.info({ mailboxes: mailboxes.size }, 'voicemail phone connected');
  }

  void connect().catch((err: unknown) => log.warn({ err }, 'voicemail: connecting failed'));

  return {
    get ready() {
      return control !== null && !control.isClosed;
    },
    open: async (mailbox) => (control ? openMailbox(control, mailbox) : false),
    openGreeting: async (mailbox) => (control ? openGreeting(control, mailbox) : false),
    openAnnouncer: async (extension) => (control ? openAnnouncer(control, extension) : false),
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      control?.close();
      control = null;
    },
  };
}
