import { randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import dgram from 'node:dgram';
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import { MEETING_DIAL_IN } from '../../src/wire/services';
import type { Queryable } from '../db/types';
import { ApiError } from '../errors';
import type { MeetingBridges, PhoneLeg } from './audio-bridge';
import { recordDialIn, type DialInCall } from './dial-in-history';
import { audioAnswer, readAudioOffer, type AudioOffer } from './dial-in-sdp';
import type { MeetingRooms } from './janus-rooms';
import { phoneEntry } from './phone-admission';
import type { PhoneChanges } from './phone-changes';
import type { PhoneFeedKeeper } from './phone-feed';
import * as repo from './repository';
import { openOccurrence } from './service';

/**
 * The meetings' dial-in user agent: Kamailio sends it the calls to `<dial-in number>*<meeting
 * ID>*<phone PIN>` (route DIAL_IN); it checks the digits, joins the caller to the meeting's
 * AudioBridge as a plain-RTP participant and answers with the bridge's own RTP address, so the
 * phone's audio (through rtpengine) goes straight to Janus. The SIP transactions are the `sip`
 * package's (UDP, loopback); this only says what to answer.
 */

/** The part of the `sip` package used here (it ships no types). */
interface SipMessage {
  method?: string;
  uri?: string;
  status?: number;
  headers: Record<string, unknown> & {
    to: { params: Record<string, string | undefined>; uri?: string };
    from: { uri: string; name?: string; params?: Record<string, string | undefined> };
    'call-id': string;
    contact?: { uri: string }[];
    'record-route'?: unknown[];
  };
  content?: string;
}
/** A request of ours (the lib adds the Via). */
interface SipRequest {
  method: string;
  uri: string;
  headers: Record<string, unknown>;
}
interface SipStack {
  send(m: SipMessage | SipRequest, onResponse?: (rs: SipMessage) => void): void;
  destroy(): void;
}
interface SipLib {
  create(o: { udp: boolean; tcp: boolean; address: string; port: number; publicAddress?: string; logger?: { error?: (e: unknown) => void } }, onRequest: (rq: SipMessage) => void): SipStack;
  makeResponse(rq: SipMessage, status: number, reason: string, extension?: { headers?: Record<string, unknown>; content?: string }): SipMessage;
  parseUri(s: string): { user?: string } | undefined;
}
const sip = createRequire(import.meta.url)('sip') as SipLib;

/** `*64*<meeting ID>*<phone PIN>`: the ID is the meeting's access code (digits), the PIN six digits. */
const DIALLED = new RegExp(`^${MEETING_DIAL_IN.replace(/[*]/g, '\\*')}\\*(\\d{6,12})\\*(\\d{1,12})$`);

/**
 * The caller's extension as Kamailio vouches for it (route DIAL_IN: the user the call's credentials
 * are, never a gateway's caller ID); null for an outside call. The From is only a name to show.
 */
function vouchedCaller(rq: SipMessage): string | null {
  const said = rq.headers['x-uc-caller'];
  return typeof said === 'string' && /^[0-9]{1,5}$/.test(said.trim()) ? said.trim() : null;
}

/** The dialled user part as the phone showed it (`*64*…`, not `%2A64%2A…`). */
function readableUser(user: string): string {
  try {
    return decodeURIComponent(user);
  } catch {
    return user;
  }
}

export function parseDialled(user: string | undefined): { accessCode: string; pin: string } | null {
  const m = user ? DIALLED.exec(decodeURIComponent(user)) : null;
  return m ? { accessCode: m[1]!, pin: m[2]! } : null;
}

const samePin = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What the phone shows as its name in the meeting: "phone" and the caller's number, the tile's name. */
export const phoneDisplay = (callerUser: string): string => `phone:${callerUser}`;

/** How long a phone whose Janus went away waits for it to come back before it is hung up. */
export const RECOVER_MAX_MS = 30_000;
const RECOVER_RETRY_MS = 1000;

interface Call {
  meetingId: number | null;
  /** The phone's leg in the bridge; null at the door, and while Janus is being waited for. */
  leg: PhoneLeg | null;
  /** How to reach the phone inside the call (for our BYE): its INVITE, as answered. */
  invite: SipMessage | null;
  answer: string | null;
  /** What the answer's SDP needs again when the bridge is joined anew (its o= line's session and version). */
  media: { meeting: repo.MeetingRow; offer: AudioOffer; callerNumber: string; session: number; version: number } | null;
  /** Our requests' CSeq inside the call (a re-INVITE, the BYE). */
  cseq: number;
  toTag: string;
  ended: boolean;
  /** For the caller's history. */
  history: Omit<DialInCall, 'endedAt'>;
}

export interface DialIn {
  /** Calls in progress (Call-IDs), for tests and the operator. */
  calls(): number;
  /** Hangs up every phone in the meeting (it was ended for all, or deleted). */
  hangUp(meetingId: number): void;
  /** The phones in the meeting's audio now: the bridge's id of each, its number, whether the host muted it, whether it speaks. */
  phones(meetingId: number): Promise<{ id: number; number: string; muted: boolean; talking: boolean }[]>;
  /** The host mutes or unmutes one phone; false when it is not in the meeting. */
  mute(meetingId: number, phoneId: number, mute: boolean): Promise<boolean>;
  /** The host removes one phone: it gets our BYE. False when it is not in the meeting. */
  remove(meetingId: number, phoneId: number): boolean;
  close(): void;
}

export function startDialIn(o: {
  db: Queryable;
  rooms: Pick<MeetingRooms, 'participants'>;
  bridges: MeetingBridges;
  feeds: PhoneFeedKeeper;
  port: number;
  log: FastifyBaseLogger;
  /** Told when a meeting's phones change (one joins, leaves, is muted): the page's read waits on it. */
  changes?: Pick<PhoneChanges, 'changed'>;
}): DialIn {
  const changed = (meetingId: number) => o.changes?.changed(meetingId);
  const calls = new Map<string, Call>();
  const contact = [{ uri: `sip:dialin@127.0.0.1:${o.port}` }];
  let stack: SipStack | null = null;
  let closed = false;

  /** The call's row in its caller's history, once it is over (never holding up SIP). */
  const keep = (call: Call) =>
    void recordDialIn(o.db, { ...call.history, endedAt: new Date() }).catch((err: unknown) => o.log.warn({ err, callId: call.history.callId }, 'dial-in call not kept in the history'));
  const reply = (rq: SipMessage, status: number, reason: string, extension?: { headers?: Record<string, unknown>; content?: string }) => stack?.send(sip.makeResponse(rq, status, reason, extension));

  async function invite(rq: SipMessage): Promise<void> {
    const callId = rq.headers['call-id'];
    const existing = calls.get(callId);
    if (rq.headers.to.params.tag) {
      // A re-INVITE (a hold, a refresh): the same media as before.
      if (existing?.answer) reply(rq, 200, 'OK', { headers: { to: rq.headers.to, contact, 'content-type': 'application/sdp' }, content: existing.answer });
      else reply(rq, 481, 'Call Does Not Exist');
      return;
    }
    if (existing) return; // a retransmission: the transaction layer answers it
    const toTag = randomBytes(6).toString('hex');
    const callerNumber = sip.parseUri(rq.headers.from.uri)?.user ?? '';
    const caller = vouchedCaller(rq);
    const dialledUser = sip.parseUri(rq.uri ?? '')?.user ?? '';
    const call: Call = {
      meetingId: null,
      leg: null,
      invite: null,
      answer: null,
      media: null,
      cseq: 0,
      toTag,
      ended: false,
      history: { callId, caller, dialled: readableUser(dialledUser), meetingName: null, startedAt: new Date(), answeredAt: null },
    };
    calls.set(callId, call);
    const fail = (status: number, reason: string) => {
      calls.delete(callId);
      keep(call);
      reply(rq, status, reason, { headers: { to: { ...rq.headers.to, params: { ...rq.headers.to.params, tag: toTag } } } });
    };
    reply(rq, 100, 'Trying');
    const dialled = parseDialled(dialledUser);
    if (!dialled) return fail(404, 'Not Found');
    const meeting = await repo.meetingByCode(o.db, dialled.accessCode);
    if (!meeting) return fail(404, 'No Such Meeting');
    call.history.meetingName = meeting.name;
    if (!samePin(meeting.phone_pin, dialled.pin)) {
      o.log.info({ callId, meeting: meeting.id }, 'dial-in refused: wrong phone PIN');
      return fail(403, 'Wrong PIN');
    }
    // As in the lobby: a meeting is open from shortly before its start to its end; a room always.
    try {
      openOccurrence(meeting, Date.now());
    } catch (err) {
      if (err instanceof ApiError) return err.statusCode === 410 ? fail(404, 'Meeting Ended') : fail(480, 'Meeting Not Open Yet');
      throw err;
    }
    const offer = readAudioOffer(rq.content ?? '');
    if (!offer) return fail(488, 'Not Acceptable Here');
    // Known from here on: ending the meeting hangs up a phone still held at the door too.
    call.meetingId = meeting.id;
    const entry = await phoneEntry({
      db: o.db,
      rooms: o.rooms,
      meeting,
      caller,
      callerNumber,
      calling: () => !call.ended,
      ringing: () => reply(rq, 180, 'Ringing', { headers: { to: { ...rq.headers.to, params: { ...rq.headers.to.params, tag: toTag } } } }),
    });
    if (entry === 'denied') return fail(603, 'Declined By Host');
    if (entry === 'timed-out') return fail(480, 'Nobody Let You In');
    if (entry === 'hung-up') return fail(487, 'Request Terminated');
    let leg: PhoneLeg;
    try {
      leg = await o.bridges.joinPhone(meeting.id, { display: phoneDisplay(callerNumber), remote: offer.remote, codec: offer.codec, payloadType: offer.payloadType });
    } catch (err) {
      o.log.error({ err, callId }, 'dial-in: the meeting audio bridge refused the phone');
      return fail(503, 'Service Unavailable');
    }
    if (call.ended) {
      // Cancelled while the bridge was joining.
      leg.leave();
      return fail(487, 'Request Terminated');
    }
    call.leg = leg;
    call.invite = rq;
    o.feeds.joined(meeting, { key: callId, number: callerNumber, group: leg.group });
    changed(meeting.id);
    call.media = { meeting, offer, callerNumber, session: Date.now(), version: 1 };
    call.answer = audioAnswer(leg.local, offer.codec, offer.payloadType, call.media.session, call.media.version);
    void leg.lost.then(() => recover(callId, call));
    call.history.answeredAt = new Date();
    o.log.info({ callId, meeting: meeting.id, participant: leg.id }, 'a phone dialled into the meeting');
    reply(rq, 200, 'OK', { headers: { to: { ...rq.headers.to, params: { ...rq.headers.to.params, tag: toTag } }, contact, 'content-type': 'application/sdp' }, content: call.answer });
  }

  function end(callId: string): void {
    const call = calls.get(callId);
    if (!call) return;
    call.ended = true;
    // Still at the door: the INVITE's own course ends it.
    if (!call.invite) return;
    call.leg?.leave();
    call.leg = null;
    calls.delete(callId);
    keep(call);
    if (call.meetingId !== null) {
      o.feeds.left(call.meetingId, callId);
      changed(call.meetingId);
    }
  }

  /** A request of ours inside the call (re-INVITE, BYE, ACK): to the phone's Contact, through the proxies that recorded the route. */
  function inDialog(callId: string, call: Call, method: string, extra: { seq?: number; headers?: Record<string, unknown>; content?: string }, onResponse?: (rs: SipMessage) => void): boolean {
    const rq = call.invite;
    const target = rq?.headers.contact?.[0]?.uri;
    if (!rq || !target || !stack) return false;
    stack.send(
      {
        method,
        uri: target,
        headers: {
          to: rq.headers.from,
          from: { ...rq.headers.to, params: { ...rq.headers.to.params, tag: call.toTag } },
          'call-id': callId,
          cseq: { method, seq: extra.seq ?? ++call.cseq },
          ...(rq.headers['record-route']?.length ? { route: rq.headers['record-route'] } : {}),
          contact,
          ...extra.headers,
        },
        ...(extra.content ? { content: extra.content } : {}),
      } as SipRequest,
      onResponse ?? (() => undefined),
    );
    return true;
  }

  /**
   * Janus went away under an answered phone (killed, restarted): the phone would stay connected in
   * silence. It is joined to the bridge again once Janus answers (its tile comes back with it) and
   * moved to the new RTP address with a re-INVITE; if Janus is not back within RECOVER_MAX_MS, or
   * the phone refuses the move, the call is hung up with the reason, so the caller can dial again.
   */
  async function recover(callId: string, call: Call): Promise<void> {
    const media = call.media;
    if (call.ended || closed || !media || call.meetingId === null) return;
    call.leg = null;
    o.feeds.left(call.meetingId, callId);
    changed(call.meetingId);
    o.log.warn({ callId, meeting: call.meetingId }, 'dial-in: Janus went away under the phone; joining it again');
    const deadline = Date.now() + RECOVER_MAX_MS;
    let leg: PhoneLeg | null = null;
    while (!leg) {
      if (call.ended || closed) return;
      try {
        leg = await o.bridges.joinPhone(call.meetingId, { display: phoneDisplay(media.callerNumber), remote: media.offer.remote, codec: media.offer.codec, payloadType: media.offer.payloadType });
      } catch (err) {
        if (Date.now() >= deadline) {
          o.log.error({ err, callId }, 'dial-in: the meeting audio did not come back; hanging the phone up');
          return bye(callId, call, 'SIP;cause=503;text="Meeting audio unavailable"');
        }
        await sleep(RECOVER_RETRY_MS);
      }
    }
    if (call.ended || closed) return leg.leave();
    call.leg = leg;
    media.version++;
    call.answer = audioAnswer(leg.local, media.offer.codec, media.offer.payloadType, media.session, media.version);
    o.feeds.joined(media.meeting, { key: callId, number: media.callerNumber, group: leg.group });
    changed(media.meeting.id);
    void leg.lost.then(() => recover(callId, call));
    const seq = ++call.cseq;
    const sent = inDialog(callId, call, 'INVITE', { seq, headers: { 'content-type': 'application/sdp' }, content: call.answer }, (rs) => {
      const status = rs.status ?? 0;
      if (status < 200) return;
      if (status < 300) {
        inDialog(callId, call, 'ACK', { seq, headers: { to: rs.headers.to } });
        o.log.info({ callId, participant: leg.id }, 'dial-in: the phone is back in the meeting audio');
      } else if (!call.ended) {
        o.log.warn({ callId, status }, 'dial-in: the phone refused to move to the new meeting audio');
        bye(callId, call, 'SIP;cause=503;text="Meeting audio moved"');
      }
    });
    if (!sent) bye(callId, call, 'SIP;cause=503;text="Meeting audio unavailable"');
  }

  // Not "127.0.0.1" as our own name: the lib takes a Route or a target on its own host for itself,
  // and Kamailio and the phones are on 127.0.0.1 too.
  const start = () => sip.create({ udp: true, tcp: false, address: '127.0.0.1', port: o.port, publicAddress: 'localhost', logger: { error: (err) => o.log.warn({ err }, 'dial-in SIP error') } }, (rq) => {
    switch (rq.method) {
      case 'INVITE':
        void invite(rq).catch((err: unknown) => {
          o.log.error({ err }, 'dial-in INVITE failed');
          reply(rq, 500, 'Server Error');
        });
        return;
      case 'ACK':
        return;
      case 'BYE':
        end(rq.headers['call-id']);
        reply(rq, 200, 'OK');
        return;
      case 'CANCEL':
        end(rq.headers['call-id']);
        reply(rq, 200, 'OK');
        return;
      case 'OPTIONS':
        reply(rq, 200, 'OK');
        return;
      default:
        reply(rq, 405, 'Method Not Allowed');
    }
  });
  // The lib's UDP socket has no error handler: a port already taken would end the process, so it
  // is tried first (another copy of the product on the same ports keeps its dial-in).
  const probe = dgram.createSocket('udp4');
  probe.once('error', (err) => {
    probe.close();
    o.log.error({ err, port: o.port }, 'dial-in not started: its SIP port is taken');
  });
  probe.bind(o.port, '127.0.0.1', () => {
    probe.close(() => {
      if (!closed) stack = start();
    });
  });

  /** Our BYE, inside the call; `reason` (RFC 3326) when it is not the host's doing. */
  function bye(callId: string, call: Call, reason?: string): void {
    inDialog(callId, call, 'BYE', reason ? { headers: { reason } } : {});
    end(callId);
  }

  /** The call of the phone the bridge knows as `phoneId`, in that meeting. */
  const answered = (meetingId: number, phoneId: number): [string, Call] | null => [...calls].find(([, c]) => c.meetingId === meetingId && c.leg?.id === phoneId) ?? null;

  return {
    calls: () => [...calls.values()].filter((c) => c.leg).length,
    hangUp(meetingId) {
      for (const [id, call] of [...calls]) if (call.meetingId === meetingId) bye(id, call);
    },
    async phones(meetingId) {
      const ours = new Map([...calls.values()].flatMap((c) => (c.meetingId === meetingId && c.leg ? [[c.leg.id, c.leg.group] as const] : [])));
      if (ours.size === 0) return [];
      const inBridge = await o.bridges.participants(meetingId);
      // A muted phone's voice is not in its group's mix: it says nothing, whatever it sends.
      return inBridge.filter((p) => ours.has(p.id)).map((p) => ({ id: p.id, number: p.display.replace(/^phone:/, ''), muted: p.muted, talking: !p.muted && o.feeds.talking(meetingId, ours.get(p.id)!) }));
    },
    async mute(meetingId, phoneId, mute) {
      if (!answered(meetingId, phoneId)) return false;
      await o.bridges.mute(meetingId, phoneId, mute);
      changed(meetingId);
      return true;
    },
    remove(meetingId, phoneId) {
      const found = answered(meetingId, phoneId);
      if (found) bye(found[0], found[1]);
      return found !== null;
    },
    close() {
      for (const id of [...calls.keys()]) end(id);
      closed = true;
      stack?.destroy();
    },
  };
}
