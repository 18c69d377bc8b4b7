import dgram from 'node:dgram';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/types';
import type { ServicesConfig } from '../services/layout';
import type { RecordingState } from '../../src/wire/recording';
import { controlRecording, RecordingControlError } from './recording-control';

/**
 * The DTMF sequences of the platform configuration (`GET /v1/platform-configuration`): dialled
 * during a call, the first starts an on-demand recording, the second pauses a running recording or
 * resumes a paused one. Any phone can use them (a desk phone as well as the web client), because
 * the media server hears them, not the client.
 */
export const RECORDING_DTMF = { onDemand: '*81', pauseResume: '*82' } as const;

/** Digits further apart than this are not one sequence. */
const SEQUENCE_GAP_MS = 3000;

/** rtpengine's DTMF events: 0–9, then *, #, A–D (RFC 4733). */
const EVENT_DIGITS = '0123456789*#ABCD';

interface DtmfEvent {
  callid: string;
  event: number;
}

function parseEvent(msg: Buffer): DtmfEvent | null {
  try {
    const e = JSON.parse(msg.toString('utf8')) as Partial<DtmfEvent> & { type?: string };
    if (e.type !== 'DTMF' || typeof e.callid !== 'string' || typeof e.event !== 'number') return null;
    return { callid: e.callid, event: e.event };
  } catch {
    return null;
  }
}

/**
 * Reads rtpengine's DTMF log (one JSON datagram per digit) and acts on the recording sequences of
 * the calls it anchors. Only one API copy can hold the port; the others simply do not listen (the
 * state they would change is in the database anyway).
 */
export function listenForRecordingDtmf(app: FastifyInstance, db: Queryable, cfg: ServicesConfig): void {
  if (process.env.UC_DTMF_EVENTS === 'off') return;
  const typed = new Map<string, { digits: string; at: number }>();
  let socket: dgram.Socket | null = null;

  async function act(callId: string, digits: string): Promise<void> {
    const { rows } = await db.query<{ recording: RecordingState; party: number | null }>(
      'SELECT recording, coalesce(caller_user_id, callee_user_id) AS party FROM live_calls WHERE sip_call_id = $1',
      [callId],
    );
    const live = rows[0];
    if (!live?.party) return;
    const action = digits.endsWith(RECORDING_DTMF.onDemand)
      ? live.recording === 'none' ? 'start' : null
      : digits.endsWith(RECORDING_DTMF.pauseResume)
        ? live.recording === 'recording' ? 'pause' : live.recording === 'paused' ? 'resume' : null
        : null;
    if (!action) return;
    typed.delete(callId);
    try {
      const state = await controlRecording(db, cfg, live.party, callId, action);
      app.log.info({ callId, action, state: state.state }, 'recording changed by DTMF');
    } catch (err) {
      // Mode off, or another device changed it first: the sequence simply has no effect.
      if (!(err instanceof RecordingControlError)) app.log.warn({ err, callId }, 'recording by DTMF failed');
    }
  }

  app.addHook('onReady', async () => {
    const s = dgram.createSocket('udp4');
    s.on('message', (msg) => {
      const e = parseEvent(msg);
      const digit = e ? EVENT_DIGITS[e.event] : undefined;
      if (!e || !digit) return;
      const now = Date.now();
      for (const [id, t] of typed) if (now - t.at > SEQUENCE_GAP_MS) typed.delete(id);
      const prev = typed.get(e.callid);
      const digits = ((prev?.digits ?? '') + digit).slice(-8);
      typed.set(e.callid, { digits, at: now });
      void act(e.callid, digits).catch((err: unknown) => app.log.warn({ err }, 'DTMF event not handled'));
    });
    await new Promise<void>((resolve) => {
      s.once('error', (err) => {
        app.log.info({ err, port: cfg.ports.dtmfEvents }, 'not listening for DTMF events (port taken, e.g. by another API copy)');
        s.close();
        resolve();
      });
      s.bind(cfg.ports.dtmfEvents, '127.0.0.1', () => {
        socket = s;
        resolve();
      });
    });
  });
  app.addHook('onClose', async () => {
    socket?.close();
    socket = null;
  });
}
