import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import type { ForwardSetting } from '../../src/wire/calling';
import type { Queryable } from '../db/types';
import { indexCallRecording, resumePendingRecordings } from '../calls/live-recordings';
import { callFinished, callStarted } from '../calls/recording-control';
import { ApiError, parseOrThrow } from '../errors';
import { startVoicemailBox, type VoicemailBox } from '../voicemail/deposit';
import { loadOrCreateSecret, SECRET_NAMES } from '../services/layout';
import { callRouting } from '../calls/repository';
import type { RouteContext } from './context';

/** A SIP user part as Kamailio reports it: digits, optionally with +, * or # (no free text reaches SQL). */
const SipNumber = z.string().check(z.regex(/^\+?[0-9*#]{1,32}$/));

const RouteQuery = z.object({
  callee: SipNumber,
  /**
   * `unanswered`: the callee is offline, busy, declined or did not answer. `voicemail`: the caller
   * dialled the extension followed by * (a transfer to voicemail does that).
   */
  on: z.optional(z.enum(['unanswered', 'voicemail'])),
});

const CallEventQuery = z.object({
  event: z.enum(['start', 'end', 'failed']),
  call_id: z.string().check(z.minLength(1), z.maxLength(255)),
  /** An outside caller may be anonymous or alphanumeric; only an extension ever matches a user. */
  caller: z.string().check(z.regex(/^[\w+*#.@-]{1,64}$/)),
  callee: SipNumber,
  /** Unix seconds when the INVITE arrived. */
  t0: z.coerce.number().check(z.int(), z.gte(0)),
  /** Seconds the call was connected (end). */
  duration: z.optional(z.coerce.number().check(z.int(), z.gte(0))),
  /** The mailbox, when the call went to voicemail. */
  voicemail: z.optional(z.string().check(z.regex(/^[0-9]{1,5}$/))),
});

interface Party {
  id: number;
  extension: string;
  name: string;
}

/** Extensions are 1–5 digits (the dial plan); anything longer is an outside number. */
const isExtension = (n: string) => /^[0-9]{1,5}$/.test(n);

/**
 * The user behind an extension. Every organisation shares one SIP domain, so an extension names
 * one registered phone; should two organisations ever reuse one, the oldest account answers (as
 * Kamailio's registrar would have only one of them anyway).
 */
async function userByExtension(db: Queryable, extension: string): Promise<Party | null> {
  if (!isExtension(extension)) return null;
  const { rows } = await db.query<Party>(
    `SELECT id, extension, trim(first_name || ' ' || last_name) AS name FROM users WHERE extension = $1 ORDER BY id LIMIT 1`,
    [extension],
  );
  return rows[0] ?? null;
}

/**
 * Where a call to `callee` goes now: `ring`, `dnd` (busy), `forward:<number>` or
 * `voicemail:<mailbox>`; asked again with `unanswered` when the callee could not take the call (or
 * is on do-not-disturb), which the default forward answers. `voicemail` (the extension dialled with
 * a trailing *) answers `voicemail:<mailbox>` or `none`. Voicemail is only chosen while the
 * voicemail phone is connected, and otherwise falls back to what would happen without it.
 */
export async function routingDecision(db: Queryable, callee: string, on?: 'unanswered' | 'voicemail', box?: VoicemailBox | null): Promise<string> {
  const user = await userByExtension(db, callee);
  const toVoicemail = async () => (user && box?.ready && (await box.open(user.extension)) ? `voicemail:${user.extension}` : null);
  if (on === 'voicemail') return (await toVoicemail()) ?? 'none';
  if (!user) return 'ring';
  const routing = await callRouting(db, user.id);
  if (!on && routing.do_not_disturb) return 'dnd';
  const fwd: ForwardSetting | null = on === 'unanswered' ? routing.forward_default : routing.forward_always;
  if (fwd?.enabled && fwd.destination?.destination_type === 'box') return (await toVoicemail()) ?? 'ring';
  const target = fwd?.enabled ? fwd.destination?.destination_parameter : null;
  // Never back to the same phone (a loop Kamailio would otherwise follow once).
  if (target && target !== callee) return `forward:${target}`;
  return 'ring';
}

/**
 * One call's history rows, one per party who is a user, keyed by SIP Call-ID so that repeated
 * reports (start, then end) update rather than duplicate. A failed call is unanswered for both
 * (for the callee: missed); an answered call is never downgraded by a late failure report.
 */
export async function recordCallEvent(db: Queryable, e: z.output<typeof CallEventQuery>): Promise<{ rows: number; callerId: number | null; calleeId: number | null }> {
  // A call that went to voicemail: the voicemail phone answered it, the callee did not (missed).
  const [from, to] = await Promise.all([userByExtension(db, e.caller), userByExtension(db, e.voicemail ?? e.callee)]);
  const callTime = new Date(e.t0 * 1000).toISOString();
  const disposition = e.event === 'failed' ? 'UNANSWERED' : 'ANSWERED';
  const calleeDisposition = e.voicemail ? 'UNANSWERED' : disposition;
  const duration = e.event === 'end' ? (e.duration ?? 0) : 0;
  const rows: Array<[number, 'inbound' | 'outbound', string | null, string]> = [];
  // The row describes the other party: its name when it is a colleague, the number otherwise.
  if (from) rows.push([from.id, 'outbound', to?.name ?? null, disposition]);
  if (to && to.id !== from?.id) rows.push([to.id, 'inbound', from?.name ?? null, calleeDisposition]);
  for (const [userId, direction, otherName, rowDisposition] of rows) {
    await db.query(
      `INSERT INTO call_history (user_id, call_time, direction, disposition, source_phone, dest_phone, duration, is_primary, caller_id, cnam, sip_call_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8, $8, $9)
       ON CONFLICT (user_id, sip_call_id) WHERE sip_call_id IS NOT NULL DO UPDATE
          SET disposition = CASE WHEN call_history.disposition = 'ANSWERED' THEN 'ANSWERED' ELSE EXCLUDED.disposition END,
              duration = GREATEST(call_history.duration, EXCLUDED.duration)`,
      [userId, callTime, direction, rowDisposition, e.caller, e.voicemail ?? e.callee, duration, otherName, e.call_id],
    );
  }
  return { rows: rows.length, callerId: from?.id ?? null, calleeId: to?.id ?? null };
}

/**
 * Endpoints only Kamailio calls, on loopback, with the shared secret of the runtime folder in
 * `X-UC-Internal`. They are how the SIP proxy enforces what users set here (DND, forwarding) and
 * how every real call lands in the history.
 */
export function registerSipInternalRoutes(app: FastifyInstance, ctx: RouteContext): void {
  // Kamailio's http_client posts form-encoded bodies; only these routes accept them.
  void app.register(async (internal) => {
    internal.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    internalRoutes(internal, ctx);
  });
}

function internalRoutes(app: FastifyInstance, { db, services, voicemail }: RouteContext): void {
  const box = voicemail ? startVoicemailBox(db, services, app.log) : null;
  app.addHook('onClose', async () => box?.close());

  let secret: Promise<Buffer> | null = null;
  const expected = () => (secret ??= loadOrCreateSecret(services.runtimeDir, SECRET_NAMES.internalApi).then((b) => Buffer.from(b.toString('base64url'))));

  async function assertKamailio(request: FastifyRequest): Promise<void> {
    const given = Buffer.from(String(request.headers['x-uc-internal'] ?? ''));
    const want = await expected();
    const loopback = request.ip === '127.0.0.1' || request.ip === '::1' || request.ip === '::ffff:127.0.0.1';
    if (!loopback || given.length !== want.length || !timingSafeEqual(given, want)) throw new ApiError(403, 'forbidden', 'Internal endpoint');
  }

  app.get('/internal/sip/route', async (request, reply) => {
    await assertKamailio(request);
    const q = parseOrThrow(RouteQuery, request.query, 'route query');
    reply.type('text/plain');
    return routingDecision(db, q.callee, q.on, box);
  });

  /** Recordings being converted: a server that stops finishes them first (they hold the database). */
  const converting = new Set<Promise<unknown>>();
  const track = (job: Promise<unknown>) => {
    converting.add(job);
    void job.finally(() => converting.delete(job));
  };
  app.addHook('onReady', async () => {
    // Calls that ended while this server was down or busy stopping: their recordings are converted now.
    track(resumePendingRecordings(db, services.runtimeDir, app.log));
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled([...converting]);
  });

  app.post('/internal/sip/call-events', async (request, reply) => {
    await assertKamailio(request);
    const q = parseOrThrow(CallEventQuery, request.body ?? request.query, 'call event');
    const recorded = await recordCallEvent(db, q);
    if (q.event === 'start') {
      // A message being left is recorded by the voicemail box itself, never as a call recording.
      if (!q.voicemail) await callStarted(db, services, q.call_id, recorded.callerId, recorded.calleeId);
    } else {
      const finished = await callFinished(db, q.call_id);
      if (finished && finished.recording_segments > 0) {
        // Decoding takes a while: Kamailio's request (and the call's teardown) does not wait for it.
        const job = indexCallRecording(db, services.runtimeDir, {
          callId: q.call_id,
          startedAt: new Date(finished.started_at),
          callerUserId: finished.caller_user_id,
          calleeUserId: finished.callee_user_id,
          callerNumber: q.caller,
          calleeNumber: q.callee,
        }, app.log);
        track(job);
      }
    }
    reply.type('text/plain');
    return `recorded ${recorded.rows}`;
  });
}
