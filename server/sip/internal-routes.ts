import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { indexCallRecording, resumePendingRecordings } from '../calls/live-recordings';
import { callFinished, callStarted } from '../calls/recording-control';
import type { RouteContext } from '../context';
import { ApiError, parseOrThrow } from '../errors';
import { VOICEMAIL_SUBJECT } from '../../src/wire/frameConstants';
import { loadOrCreateSecret, SECRET_NAMES } from '../services/layout';
import { xmppApi } from '../services/xmpp-api';
import { xmppJid } from '../services/xmpp-token';
import { startVoicemailBox, type VoicemailBox } from '../voicemail/deposit';
import { clusterChannel, remotePhone, servePhone } from '../cluster-phones';
import { apiProcessIndex } from '../cluster';
import { voicemailNotifier } from '../voicemail/notify';
import { CallEventQuery, recordCallEvent, SipNumber } from './call-events';
import { ROUTE_EVENTS } from './decision';
import { routingDecision } from './routing';

const RouteQuery = z.object({
  callee: SipNumber,
  /**
   * `unanswered`: the callee is offline, busy, declined or did not answer (`busy`, `noanswer`,
   * `offline` say which; `huntfailed`: no find-me location answered). `voicemail`: the caller
   * dialled the extension followed by * (a transfer to voicemail does that).
   */
  on: z.optional(z.enum([...ROUTE_EVENTS.filter((e) => e !== 'incoming'), 'voicemail'])),
});

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

function internalRoutes(app: FastifyInstance, { db, services, voicemail, settings, carrier }: RouteContext): void {
  const notify = voicemailNotifier(db, app.log, {
    carrier,
    smtpUrl: settings.smtpUrl,
    push: async (username, notice) => {
      if (process.env.UC_XMPP_PROVISIONING === 'off') return;
      await xmppApi(services).call('send_message', { type: 'headline', from: services.domain, to: xmppJid(services, username), subject: VOICEMAIL_SUBJECT, body: JSON.stringify(notice) });
    },
  });
  const channel = clusterChannel();
  const box = voicemail ? startVoicemailBox(db, services, app.log, notify) : channel ? remotePhone<VoicemailBox>(channel, 'voicemail', ['open', 'openGreeting', 'openAnnouncer']) : null;
  const unserve = voicemail && box && channel ? servePhone(channel, 'voicemail', box) : null;
  app.addHook('onClose', async () => {
    unserve?.();
    box?.close();
  });

  let secret: Promise<Buffer> | null = null;
  const expected = () => (secret ??= loadOrCreateSecret(services.runtimeDir, SECRET_NAMES.internalApi).then((b) => Buffer.from(b.toString('base64url'))));

  async function assertKamailio(request: FastifyRequest): Promise<void> {
    const given = Buffer.from(String(request.headers['x-uc-internal'] ?? ''));
    const want = await expected();
    const loopback = request.ip === '127.0.0.1' || request.ip === '::1' || request.ip === '::ffff:127.0.0.1';
    if (!loopback || given.length !== want.length || !timingSafeEqual(given, want)) throw new ApiError(403, 'forbidden', 'Internal endpoint');
  }
  // Which of a cluster's processes answered Kamailio: for the operator's logs and the cluster's tests.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/internal/')) reply.header('x-uc-process', String(apiProcessIndex(process.env)));
  });

  app.get('/internal/sip/route', async (request, reply) => {
    await assertKamailio(request);
    const q = parseOrThrow(RouteQuery, request.query, 'route query');
    reply.type('text/plain');
    return routingDecision(db, q.callee, q.on, box, services.runtimeDir);
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
