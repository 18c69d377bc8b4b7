import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { IdParam } from '../../src/wire/common';
import { ROLE } from '../../src/wire/roles';
import {
  NOT_YOUR_SPEED_DIAL,
  SHARED_NOT_ALLOWED,
  SHORTCUT_MAX,
  shortcutInUse,
  SpeedDialInput,
  speedDialLimitReached,
  stripDialString,
  type SpeedDial,
  type SpeedDialList,
} from '../../src/wire/speedDial';
import type { Viewer } from '../auth/viewer';
import type { RouteContext } from '../context';
import type { Queryable } from '../db/types';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import {
  deleteSpeedDial,
  insertSpeedDial,
  lastPosition,
  listSpeedDials,
  lockOrganisationSpeedDials,
  organisationSpeedDialLimits,
  speedDialOf,
  takenShortcuts,
  updateSpeedDial,
  type SpeedDialFields,
  type SpeedDialRow,
} from './repository';

const toWire = (r: SpeedDialRow, viewer: number): SpeedDial => ({
  id: r.id,
  user_id: r.user_id,
  organization_id: r.organization_id,
  visibility: r.visibility,
  position: r.position,
  shortcut: r.shortcut,
  dial_string: r.dial_string,
  label: r.label,
  canEdit: r.user_id === viewer,
  modified: new Date(r.modified).toISOString(),
  isShared: r.visibility === 'shared',
  owner_name: r.owner_name,
});

/** Standard and limited-access users keep their entries to themselves (the specification: no shared creation for role 3). */
const mayShare = (me: Viewer) => me.roleId === ROLE.ACCOUNT_OWNER || me.roleId === ROLE.ADMINISTRATOR;

const UserPath = z.object({ id: IdParam.shape.id });
const EntryPath = z.object({ id: IdParam.shape.id, entryId: IdParam.shape.id });

/** `/v1/users/{id}/…`: every user manages only their own speed dials. */
function assertSelf(request: FastifyRequest, me: Viewer): void {
  const { id } = parseOrThrow(UserPath, request.params, 'user id');
  if (id !== me.userId) throw forbidden('You can only manage your own speed dials');
}

function entryId(request: FastifyRequest): number {
  return parseOrThrow(EntryPath, request.params, 'speed dial id').entryId;
}

function firstFree(taken: ReadonlySet<number>): number {
  for (let n = 1; n <= SHORTCUT_MAX; n++) if (!taken.has(n)) return n;
  throw new ApiError(400, 'no_free_shortcut', 'Every shortcut from #1 to #9999 is in use');
}

/** Checks the shortcut against what the entry's owner (or, shared, everyone) can dial; picks the first free one when none was given. */
async function shortcutFor(tx: Queryable, me: Viewer, visibility: SpeedDialFields['visibility'], wanted: number | null, except: number | null): Promise<number> {
  const taken = await takenShortcuts(tx, me.organizationId, me.userId, visibility, except);
  if (wanted === null) return firstFree(taken);
  if (taken.has(wanted)) throw new ApiError(400, 'shortcut_in_use', shortcutInUse(wanted), [{ path: 'shortcut', message: shortcutInUse(wanted) }]);
  return wanted;
}

/**
 * Speed dials (`GET /v1/speed-dials`, `POST /v1/users/{id}/speed-dials`,
 * `PUT|DELETE /v1/users/{id}/speed-dials/{id}`): a user's own entries and the organisation's shared
 * ones, dialled as `#<shortcut>`.
 */
export function registerSpeedDialRoutes(app: FastifyInstance, { db, requireViewer }: RouteContext): void {
  const list = async (me: Viewer): Promise<SpeedDialList> => {
    const [rows, limits] = await Promise.all([listSpeedDials(db, me.organizationId, me.userId), organisationSpeedDialLimits(db, me.organizationId)]);
    return { items: rows.map((r) => toWire(r, me.userId)), max_org_speed_dials: limits.max, total_org_speed_dials: limits.total };
  };

  app.get('/v1/speed-dials', async (request) => list(await requireViewer(request)));

  app.post('/v1/users/:id/speed-dials', async (request, reply): Promise<SpeedDial> => {
    const me = await requireViewer(request);
    assertSelf(request, me);
    const body = parseOrThrow(SpeedDialInput, request.body, 'speed dial');
    const visibility = body.visibility ?? 'personal';
    if (visibility === 'shared' && !mayShare(me)) throw forbidden(SHARED_NOT_ALLOWED);
    const id = await db.transaction(async (tx) => {
      const { max, total } = await lockOrganisationSpeedDials(tx, me.organizationId);
      if (total >= max) throw new ApiError(400, 'speed_dial_limit', speedDialLimitReached(max));
      const shortcut = await shortcutFor(tx, me, visibility, body.shortcut ?? null, null);
      const position = body.position ?? (await lastPosition(tx, me.userId)) + 1;
      return insertSpeedDial(tx, me.organizationId, me.userId, { visibility, position, shortcut, dial_string: stripDialString(body.dial_string), label: body.label?.trim() ?? '' });
    });
    reply.code(201);
    return toWire((await speedDialOf(db, me.organizationId, id))!, me.userId);
  });

  /** The entry, if the caller may change it: another organisation's or a colleague's personal entry is not there (404); a colleague's shared one is read-only (403). */
  async function ownEntry(db: Queryable, me: Viewer, id: number): Promise<SpeedDialRow> {
    const row = await speedDialOf(db, me.organizationId, id);
    if (!row || (row.user_id !== me.userId && row.visibility !== 'shared')) throw notFound('No such speed dial');
    if (row.user_id !== me.userId) throw forbidden(NOT_YOUR_SPEED_DIAL);
    return row;
  }

  app.put('/v1/users/:id/speed-dials/:entryId', async (request): Promise<SpeedDial> => {
    const me = await requireViewer(request);
    assertSelf(request, me);
    const id = entryId(request);
    const body = parseOrThrow(SpeedDialInput, request.body, 'speed dial');
    if (body.id != null && body.id !== id) throw new ApiError(400, 'validation_failed', 'The speed dial id does not match the address');
    await db.transaction(async (tx) => {
      await lockOrganisationSpeedDials(tx, me.organizationId);
      const row = await ownEntry(tx, me, id);
      const visibility = body.visibility ?? row.visibility;
      if (visibility === 'shared' && row.visibility !== 'shared' && !mayShare(me)) throw forbidden(SHARED_NOT_ALLOWED);
      const shortcut = await shortcutFor(tx, me, visibility, body.shortcut ?? row.shortcut, id);
      await updateSpeedDial(tx, id, {
        visibility,
        position: body.position ?? row.position,
        shortcut,
        dial_string: stripDialString(body.dial_string),
        label: body.label === undefined ? row.label : body.label.trim(),
      });
    });
    return toWire((await speedDialOf(db, me.organizationId, id))!, me.userId);
  });

  app.delete('/v1/users/:id/speed-dials/:entryId', async (request, reply) => {
    const me = await requireViewer(request);
    assertSelf(request, me);
    const row = await ownEntry(db, me, entryId(request));
    await deleteSpeedDial(db, row.id);
    reply.code(204);
  });
}
