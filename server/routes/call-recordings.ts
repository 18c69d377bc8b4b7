import type { FastifyInstance } from 'fastify';
import { CallRecordingsQuery, FailoverUpdate, type CallRecordingsPage, type CallRecordingWire, type FailoverResponse } from '../../src/wire/callRecordings';
import { ROLE } from '../../src/wire/profile';
import { recordingPolicy } from '../calls/recording-control';
import type { Db } from '../db/types';
import type { Viewer } from '../auth/viewer';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import { dayRange, termPatterns } from '../history/filters';
import { sendMedia } from '../media/send';
import type { RouteContext } from './context';
import { IdParam } from '../../src/wire/common';

export const recordingMediaPath = (id: number) => `/v1/orekacallrecording/recordings/${id}/media`;

interface RecordingRow {
  id: number;
  direction: 'IN' | 'OUT';
  started_at: Date | string;
  remote_party: string;
  duration: number;
  cnam: string | null;
  total: number;
}

async function failover(db: Db, organizationId: number): Promise<boolean> {
  const { rows } = await db.query<{ fail_over: boolean }>('SELECT fail_over FROM organizations WHERE id = $1', [organizationId]);
  return rows[0]?.fail_over ?? false;
}

/** ecr_can_view_own_recordings decides whether a user may see their recordings at all. */
async function requireMayView(db: Db, viewer: Viewer): Promise<{ fail_over: boolean }> {
  const policy = await recordingPolicy(db, viewer.organizationId);
  if (!policy.canViewOwn) throw forbidden('Your organisation does not let you view your call recordings');
  return { fail_over: await failover(db, viewer.organizationId) };
}

/** Call recordings: the user's own recorded calls, newest first, and their audio (WAV, with byte ranges). */
export function registerCallRecordingRoutes(app: FastifyInstance, { db, requireViewer }: RouteContext): void {
  app.get('/v1/call-recordings', async (request): Promise<CallRecordingsPage> => {
    const viewer = await requireViewer(request);
    const { userId } = viewer;
    const q = parseOrThrow(CallRecordingsQuery, request.query, 'call recordings query');
    await requireMayView(db, viewer);
    let range: { from?: Date; to?: Date };
    try {
      range = dayRange(q.start_date, q.end_date, q.tz);
    } catch (err) {
      if (err instanceof ApiError) throw new ApiError(400, 'validation_failed', 'Invalid call recordings query', err.details);
      throw err;
    }
    const term = termPatterns(q.search_term);
    const params: unknown[] = [userId, range.from?.toISOString() ?? null, range.to?.toISOString() ?? null];
    let where = 'user_id = $1 AND ($2::timestamptz IS NULL OR started_at >= $2) AND ($3::timestamptz IS NULL OR started_at < $3)';
    if (term) {
      params.push(term.name, term.digits);
      where += ' AND (search_name LIKE lower($4) OR ($5::text IS NOT NULL AND search_digits LIKE $5))';
    }
    const n = params.length;
    const { rows } = await db.query<RecordingRow>(
      `SELECT id, direction, started_at, remote_party, duration, cnam, count(*) OVER ()::int AS total
       FROM call_recordings WHERE ${where} ORDER BY started_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, q.limit, q.offset],
    );
    let total = rows[0]?.total ?? 0;
    // Past the end there is no row to carry the window count.
    if (!rows.length && q.offset > 0) {
      const c = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM call_recordings WHERE ${where}`, params);
      total = c.rows[0]?.n ?? 0;
    }
    const items: CallRecordingWire[] = rows.map((r) => ({
      recording_id: r.id,
      direction: r.direction,
      timestamp: new Date(r.started_at).toISOString(),
      remoteParty: r.remote_party,
      duration: r.duration,
      media_url: recordingMediaPath(r.id),
      cnam: r.cnam,
    }));
    return { items, total, offset: q.offset, limit: q.limit };
  });

  app.get('/v1/orekacallrecording/recordings/:id/media', async (request, reply) => {
    const viewer = await requireViewer(request);
    const { userId } = viewer;
    const { id } = parseOrThrow(IdParam, request.params, 'recording id');
    const org = await requireMayView(db, viewer);
    const { rows } = await db.query<{ bytes: Uint8Array; content_type: string }>(
      'SELECT b.bytes, b.content_type FROM call_recordings r JOIN media_blobs b ON b.id = r.media_id WHERE r.id = $1 AND r.user_id = $2',
      [id, userId],
    );
    if (!rows[0]) throw notFound(`Recording ${id} not found`);
    if (org.fail_over) throw new ApiError(503, 'failover', 'Recordings are unavailable while the organisation is in failover');
    return sendMedia(request, reply, { bytes: Buffer.from(rows[0].bytes), contentType: rows[0].content_type });
  });

  app.get('/v1/organizations/failover', async (request): Promise<FailoverResponse> => {
    const { organizationId } = await requireViewer(request);
    return { fail_over: await failover(db, organizationId) };
  });

  // Who may switch it: the organisation's account owner and administrators, for their organisation only.
  app.put('/v1/organizations/failover', async (request): Promise<FailoverResponse> => {
    const me = await requireViewer(request);
    const body = parseOrThrow(FailoverUpdate, request.body, 'failover update');
    if (me.roleId !== ROLE.ACCOUNT_OWNER && me.roleId !== ROLE.ADMINISTRATOR) throw forbidden('Only an account owner or administrator can change failover');
    await db.query('UPDATE organizations SET fail_over = $2 WHERE id = $1', [me.organizationId, body.fail_over]);
    request.log.info({ organizationId: me.organizationId, failOver: body.fail_over, by: me.userId }, 'organisation failover changed');
    return { fail_over: body.fail_over };
  });
}
