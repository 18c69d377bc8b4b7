import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IdParam } from '../../src/wire/common';
import {
  JoinRequest,
  MEETING_ERRORS,
  MEETING_JOIN_WINDOW_MS,
  MEETING_LIST_MAX_DAYS,
  MeetingInput,
  MeetingListQuery,
  SlugParam,
  type JoinResponse,
  type Meeting,
  type MeetingInfo,
  type MeetingPermissions,
  type MeetingsPage,
} from '../../src/wire/meetings';
import { ROLE } from '../../src/wire/roles';
import type { Viewer } from '../auth/viewer';
import type { RouteContext } from '../context';
import type { Queryable } from '../db/types';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import { mucHost } from '../services/layout';
import { DEFAULT_FEED_LIMITS, type FeedLimits } from './feeds';
import { registerFeedRoutes } from './feed-routes';
import { janusMeetingBridges } from './audio-bridge';
import { startDialIn, type DialIn } from './dial-in';
import { janusMeetingRooms, janusPhoneFeeds, type MeetingRooms } from './janus-rooms';
import { phoneChanges, type PhoneChanges } from './phone-changes';
import { phoneFeedKeeper } from './phone-feed';
import { talkMeter } from './phone-talking';
import { registerMediaRoutes } from './media-routes';
import { meetingAccess } from './guest-access';
import { registerGuestRoutes } from './guest-routes';
import { meetingIcs } from './ics';
import { ejabberdChatNotice, invitationSender, type ChatNoticeSender, type InvitationWork } from './invitations';
import { dayFlagsToBits, joinableSpan, meetingIdOfSlug, meetingSlug, meetingUrl, newAccessCode, occurrences } from './model';
import * as repo from './repository';
import { registerPresenceRoutes } from './presence-routes';
import { registerRoomRoutes } from './rooms-routes';
import {
  byMeeting,
  canBookRooms,
  canEditMeeting,
  checkAdHoc,
  checkPin,
  externalToWire,
  icsOf,
  ms,
  needsPin,
  openOccurrence,
  parseMeetingInput,
  recurrenceOf,
  mayCreateMeetings,
  requireCreate,
  resolveInvitees,
  resolveTimes,
  shownOccurrence,
  toWire,
  whenText,
  type MeetingsConfig,
} from './service';

export interface MeetingsOptions {
  /** Chat notices to invited colleagues; null sends none. Default: ejabberd, unless UC_XMPP_PROVISIONING=off. */
  chat?: ChatNoticeSender | null;
  /** The clock of join windows, past starts and list defaults (tests move it). */
  now?: () => number;
  feeds?: Partial<FeedLimits> & { refreshIntervalMs?: number };
  /** The meetings' Janus videorooms. Default: the Janus of the services configuration. */
  rooms?: MeetingRooms;
}

const DAY = 86_400_000;

/** Everything the meeting, room and feed routes share. */
export interface MeetingsShared {
  cfg: MeetingsConfig;
  sendInvitations: (request: FastifyRequest, work: InvitationWork) => void;
  feedLimits: FeedLimits;
  refreshIntervalMs: number;
  /** After a meeting or room is deleted: its videoroom goes, and everyone in it is told. */
  destroyRoom: (request: FastifyRequest, id: number) => void;
  /** Hangs up the phones dialled into the meeting (it ends for all). */
  hangUpPhones: (id: number) => void;
  /** The phones dialled in, for the host's mute and remove: null in a process without the dial-in. */
  phones: Pick<DialIn, 'phones' | 'mute' | 'remove'> | null;
  /** When the phones of a meeting change (the page's read of them waits on it). */
  phoneChanges: Pick<PhoneChanges, 'state' | 'after'>;
}

/**
 * Meetings (issue 21): `GET/POST /v1/meetings`, `GET/PUT/DELETE /v1/meetings/{id}`,
 * `GET /v1/meetings/{id}/ics`, `POST /v1/meetings/join`, `GET /v1/meetings/by-slug/{slug}`,
 * `GET /v1/meetings/permissions`; rooms (./rooms-routes) and external calendars (./feed-routes).
 * A meeting is seen by its booker and invitees, a room by its organisation; anyone else's id
 * answers 404, as if it did not exist.
 */
export function registerMeetingRoutes(app: FastifyInstance, ctx: RouteContext, opts: MeetingsOptions = {}): void {
  const { db, requireViewer, settings, services } = ctx;
  const meetingFor = meetingAccess(ctx);
  const chat = opts.chat !== undefined ? opts.chat : process.env.UC_XMPP_PROVISIONING === 'off' ? null : ejabberdChatNotice(services);
  const cfg: MeetingsConfig = {
    webMeetingManagement: settings.webMeetingManagement !== false,
    meetingUrl: settings.meetingUrl ?? services.apiUrl,
    domain: services.domain,
    now: opts.now ?? Date.now,
  };
  const send = invitationSender(app.log, { smtpUrl: settings.smtpUrl, chat });
  const rooms = opts.rooms ?? janusMeetingRooms(services);
  app.addHook('onClose', () => rooms.close());
  let dialIn: DialIn | null = null;
  const changes = phoneChanges();
  // The dial-in user agent runs where the service phones are driven: one API process of a product
  // or test stack (its SIP port is one), never a test's in-process app next to it.
  if (ctx.voicemail) {
    const bridges = janusMeetingBridges(services);
    const feeds = janusPhoneFeeds(services);
    const meter = talkMeter(app.log);
    const keeper = phoneFeedKeeper({ rooms, feeds, bridges, log: app.log, meter, talkingChanged: (id) => changes.changed(id) });
    dialIn = startDialIn({ db, rooms, bridges, feeds: keeper, port: services.ports.dialInSip, log: app.log, changes });
    app.addHook('onClose', async () => {
      dialIn?.close();
      await keeper.close();
      meter.close();
      await Promise.all([bridges.close(), feeds.close()]);
    });
  }
  const shared: MeetingsShared = {
    cfg,
    // After the change is stored, and without holding up the answer: a slow mail server delays nobody.
    sendInvitations: (request, work) => void send(work).catch((err: unknown) => request.log.warn({ err }, 'meeting invitations not sent')),
    feedLimits: { ...DEFAULT_FEED_LIMITS, ...opts.feeds },
    refreshIntervalMs: opts.feeds?.refreshIntervalMs ?? 30 * 60_000,
    // Without holding up the answer: the meeting is gone whatever Janus says.
    hangUpPhones: (id) => dialIn?.hangUp(id),
    phones: dialIn,
    phoneChanges: changes,
    destroyRoom: (request, id) => {
      // Phones dialled in are hung up with the room (their bridge goes when they do).
      dialIn?.hangUp(id);
      void rooms.destroy(id).catch((err: unknown) => request.log.warn({ err }, 'Janus videoroom not destroyed'));
    },
  };

  async function wire(q: Queryable, viewer: Viewer, row: repo.MeetingRow): Promise<Meeting> {
    return toWire(cfg, row, await repo.inviteesOf(q, [row.id]), viewer, { mayBookRooms: row.meeting_type === 'room' && (await canBookRooms(q, cfg, viewer)) });
  }

  async function visible(q: Queryable, viewer: Viewer, id: number, forUpdate = false): Promise<repo.MeetingRow> {
    const row = await repo.visibleMeeting(q, viewer.organizationId, viewer.userId, id, forUpdate);
    if (!row || row.meeting_type !== 'meeting') throw notFound(`Meeting ${id} not found`);
    return row;
  }

  async function editableMeeting(q: Queryable, viewer: Viewer, id: number): Promise<repo.MeetingRow> {
    const row = await visible(q, viewer, id, true);
    if (!canEditMeeting(cfg, row, viewer)) throw forbidden(cfg.webMeetingManagement ? MEETING_ERRORS.notEditable : MEETING_ERRORS.createNotAllowed);
    return row;
  }

  function fieldsOf(input: ReturnType<typeof MeetingInput.parse>, times: ReturnType<typeof resolveTimes>): repo.MeetingFields {
    return {
      name: input.meeting_name,
      description: input.meeting_description,
      startsAt: new Date(times.start),
      durationMs: times.durationMs,
      timeZone: input.time_zone,
      occurs: times.recurrence?.occurs ?? null,
      dayInWeek: times.recurrence ? dayFlagsToBits(times.recurrence.dayInWeek) : 0,
      recurrenceUntil: times.recurrence?.until != null ? new Date(times.recurrence.until) : null,
      bookmarks: [...new Set(input.bookmarks)],
      pin: input.pin || null,
      password: input.password || null,
      waitingRoom: input.waiting_room,
      memberBypass: input.member_bypass,
      onlyMods: input.only_mods,
      isPrivate: input.is_private,
      maxParticipants: null,
    };
  }

  /** Who hears of a change: guests by e-mail (REQUEST or CANCEL), colleagues in chat. */
  function announce(request: FastifyRequest, row: repo.MeetingRow, before: readonly repo.InviteeRow[], after: readonly repo.InviteeRow[], deleted: boolean): void {
    const key = (i: repo.InviteeRow) => (i.user_id !== null ? `u${i.user_id}` : `e${i.email}`);
    const was = new Set(before.map(key));
    const stays = new Set(deleted ? [] : after.map(key));
    const guests: InvitationWork['guests'] = [];
    const colleagues: InvitationWork['colleagues'] = [];
    for (const i of [...before, ...after.filter((a) => !was.has(key(a)))]) {
      const cancelled = !stays.has(key(i));
      if (i.email !== null) guests.push({ email: i.email, method: cancelled ? 'CANCEL' : 'REQUEST' });
      // Limited-access users have no chat account to be told in.
      else if (i.username !== null && i.role_id !== ROLE.LIMITED_ACCESS) colleagues.push({ username: i.username, change: cancelled ? 'cancelled' : was.has(key(i)) ? 'updated' : 'created' });
    }
    if (!guests.length && !colleagues.length) return;
    const meeting = icsOf(cfg, row, deleted ? before : after);
    shared.sendInvitations(request, { meeting, bookerUsername: row.booker_username, guests, colleagues, when: whenText(row) });
  }

  app.get('/v1/meetings/permissions', async (request): Promise<MeetingPermissions> => {
    const viewer = await requireViewer(request);
    return { web_meeting_management: cfg.webMeetingManagement, can_create_meetings: mayCreateMeetings(cfg.webMeetingManagement, viewer.roleId), can_book_rooms: await canBookRooms(db, cfg, viewer) };
  });

  app.get('/v1/meetings', async (request): Promise<MeetingsPage> => {
    const viewer = await requireViewer(request);
    const q = parseOrThrow(MeetingListQuery, request.query, 'meeting list query');
    const now = cfg.now();
    const from = q.from ? Date.parse(q.from) : now - 7 * DAY;
    const to = q.to ? Date.parse(q.to) : from + 60 * DAY;
    if (to <= from || to - from > MEETING_LIST_MAX_DAYS * DAY) {
      throw new ApiError(400, 'validation_failed', `The window must end after it starts and span at most ${MEETING_LIST_MAX_DAYS} days`, [{ path: 'to', message: 'bad_window' }]);
    }
    // Titles are matched per meeting and only the page's items are built: expanding is cheap, wire objects are not.
    const needle = q.search.trim().toLowerCase();
    const matches = (name: string) => !needle || name.toLowerCase().includes(needle);
    const found: Array<{ start: number; key: string; build: () => Meeting }> = [];
    if (q.filter !== 'e') {
      const rows = (await repo.meetingsBetween(db, viewer.organizationId, viewer.userId, new Date(from), new Date(to), q.filter === 'p' ? 'mine' : q.filter === 'c' ? 'others' : 'all')).filter((r) => matches(r.name));
      const grouped = byMeeting(await repo.inviteesOf(db, rows.map((r) => r.id)));
      for (const row of rows) {
        for (const span of occurrences(ms(row.starts_at)!, row.duration_ms!, row.time_zone, recurrenceOf(row), from, to)) {
          found.push({ start: span.start, key: `uc:${row.id}:${span.start}`, build: () => toWire(cfg, row, grouped.get(row.id) ?? [], viewer, { span }) });
        }
      }
    }
    if (q.filter === undefined || q.filter === 'e') {
      for (const e of await repo.externalEventsBetween(db, viewer.userId, new Date(from), new Date(to))) {
        if (matches(e.name)) found.push({ start: ms(e.starts_at)!, key: `${e.source}:${e.id}`, build: () => externalToWire(e) });
      }
    }
    found.sort((a, b) => a.start - b.start || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { items: found.slice(q.offset, q.offset + q.limit).map((f) => f.build()), total: found.length, offset: q.offset, limit: q.limit, from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  });

  app.get('/v1/meetings/:id', async (request): Promise<Meeting> => {
    const viewer = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'meeting id');
    return wire(db, viewer, await visible(db, viewer, id));
  });

  app.get('/v1/meetings/:id/ics', async (request, reply) => {
    const viewer = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'meeting id');
    const row = await visible(db, viewer, id);
    const ics = meetingIcs(icsOf(cfg, row, await repo.inviteesOf(db, [id])), 'PUBLISH');
    const file = `${row.name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().slice(0, 60) || 'meeting'}.ics`;
    return reply
      .type('text/calendar; charset=utf-8')
      // Personal like the JSON answers, which app.ts marks no-store; this one is not JSON.
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="meeting-${meetingSlug(id)}.ics"; filename*=UTF-8''${encodeURIComponent(file)}`)
      .send(ics);
  });

  app.post('/v1/meetings', async (request, reply) => {
    const viewer = await requireViewer(request);
    requireCreate(cfg, viewer);
    const input = parseMeetingInput(MeetingInput, request.body, 'meeting');
    if (input.ad_hoc) checkAdHoc(input, viewer);
    const times = resolveTimes(input, cfg.now(), null);
    const fields = fieldsOf(input, times);
    const { row, invitees } = await db.transaction(async (tx) => {
      const wanted = await resolveInvitees(tx, viewer, input.invitees);
      let id = 0;
      for (let attempt = 0; attempt < 5 && !id; attempt++) id = await repo.insertMeeting(tx, viewer.organizationId, viewer.userId, 'meeting', newAccessCode(), fields);
      if (!id) throw new ApiError(503, 'busy', 'No meeting ID was free; try again');
      await repo.replaceInvitees(tx, id, wanted);
      if (input.ad_hoc) await repo.markAdHoc(tx, id);
      return { row: (await repo.visibleMeeting(tx, viewer.organizationId, viewer.userId, id))!, invitees: await repo.inviteesOf(tx, [id]) };
    });
    // The chat's invite told the colleague already: no invitation on top of it.
    if (!row.ad_hoc) announce(request, row, [], invitees, false);
    return reply.code(201).send(toWire(cfg, row, invitees, viewer));
  });

  app.put('/v1/meetings/:id', async (request): Promise<Meeting> => {
    const viewer = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'meeting id');
    const input = parseMeetingInput(MeetingInput, request.body, 'meeting');
    const { row, before, after } = await db.transaction(async (tx) => {
      const old = await editableMeeting(tx, viewer, id);
      if (input.ad_hoc && !old.ad_hoc) throw new ApiError(400, 'validation_failed', MEETING_ERRORS.adHocEdit, [{ path: 'ad_hoc', message: 'ad_hoc_edit' }]);
      const times = resolveTimes({ ...input, instant: false }, cfg.now(), ms(old.starts_at));
      const wanted = await resolveInvitees(tx, viewer, input.invitees);
      const before = await repo.inviteesOf(tx, [id]);
      await repo.updateMeeting(tx, id, fieldsOf(input, times));
      await repo.replaceInvitees(tx, id, wanted);
      return { row: (await repo.visibleMeeting(tx, viewer.organizationId, viewer.userId, id))!, before, after: await repo.inviteesOf(tx, [id]) };
    });
    announce(request, row, before, after, false);
    return toWire(cfg, row, after, viewer);
  });

  app.delete('/v1/meetings/:id', async (request, reply) => {
    const viewer = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'meeting id');
    const { row, before } = await db.transaction(async (tx) => {
      const row = await editableMeeting(tx, viewer, id);
      const before = await repo.inviteesOf(tx, [id]);
      await repo.deleteMeeting(tx, id);
      return { row: { ...row, sequence: row.sequence + 1 }, before };
    });
    announce(request, row, before, [], true);
    shared.destroyRoom(request, id);
    return reply.code(204).send();
  });

  app.post('/v1/meetings/join', async (request): Promise<JoinResponse> => {
    const viewer = await requireViewer(request);
    const input = parseOrThrow(JoinRequest, request.body, 'join request');
    const row = await repo.meetingByAccessCode(db, viewer.organizationId, input.access_code);
    if (!row) throw notFound('No meeting has this ID');
    checkPin(row, await repo.inviteesOf(db, [row.id]), viewer, input.pin);
    const url = meetingUrl(cfg.meetingUrl, row.booker_username, row.id);
    const span = openOccurrence(row, cfg.now());
    return { meeting_id: row.id, meeting_name: row.name, url, start: span.start === null ? null : new Date(span.start).toISOString(), end: span.end === null ? null : new Date(span.end).toISOString() };
  });

  // A guest's token opens this one too, for its own meeting (guest-access.ts).
  app.get('/v1/meetings/by-slug/:slug', async (request): Promise<MeetingInfo> => {
    const { slug } = parseOrThrow(SlugParam, request.params, 'meeting slug');
    const id = meetingIdOfSlug(slug);
    if (id === null) {
      await requireViewer(request);
      throw notFound('No such meeting');
    }
    const { caller, row } = await meetingFor(request, id).catch((err: unknown) => {
      throw err instanceof ApiError && err.statusCode === 404 ? notFound('No such meeting') : err;
    });
    const owner = caller.kind === 'user' && row.booked_by_id === caller.viewer.userId;
    const span = shownOccurrence(row, cfg.now());
    return {
      id: row.id,
      is_owner: owner,
      has_pin: row.pin !== null,
      pin: owner ? row.pin : null,
      jid: `v.${slug}@${mucHost(services)}`,
      meeting_title: row.name,
      owner_name: row.booker_name,
      type: row.meeting_type,
      is_full: false,
      is_owner_occupied: false,
      max_occupants: row.max_participants,
      start: span ? new Date(span.start).toISOString() : null,
      end: span ? new Date(span.end).toISOString() : null,
      time_zone: row.time_zone,
      // A guest gave the PIN for the token.
      needs_pin: caller.kind === 'user' && needsPin(row, await repo.inviteesOf(db, [row.id]), caller.viewer),
    };
  });

  registerRoomRoutes(app, ctx, shared);
  registerGuestRoutes(app, ctx, shared);
  registerPresenceRoutes(app, ctx, shared);
  registerFeedRoutes(app, ctx, shared);
  registerMediaRoutes(app, ctx, shared, rooms);
}
