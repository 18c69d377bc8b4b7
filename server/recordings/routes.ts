import type { FastifyInstance } from 'fastify';
import { CallRecordingsQuery, FailoverUpdate, type CallRecordingsPage, type CallRecordingWire, type FailoverResponse } from '../../src/wire/callRecordings';
import { IdParam } from '../../src/wire/common';
import { ROLE } from '../../src/wire/profile';
import type { Viewer } from '../auth/viewer';
import { recordingPolicy } from '../calls/recording-control';
import type { Queryable } from '../db/types';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import { dayRange, termPatterns } from '../history/filters';
import { sendMedia } from '../media/send';
import type { RouteContext } from '../context';
import { failover, findRecordings, recordingAudio, setFailover } from './repository';

export const recordingMediaPath = (id: number) => `/v1/orekacallrecording/recordings/${id}/media`;

/** ecr_can_view_own_recordings decides whether a user may see their recordings at all. */
async function requireMayView(db: Queryable, viewer: Viewer): Promise<{ fail_over: boolean }> {
  const policy = await recordingPolicy(db, viewer.organizationId);
  if (!policy.canViewOwn) throw forbidden('Your organisation does not let you view your call recordings');
  return { fail_over: await failover(db, viewer.organizationId) };
}

/** Call recordings: the user's own recorded calls, newest first, and their audio (WAV, with byte ranges). */
export function registerCallRecordingRoutes(app: FastifyInstance, { db, requireViewer }: RouteContext): void {
  app.get('/v1/call-recordings', async (request): Promise<CallRecordingsPage> => {
    const viewer = await requireViewer(request);
    const q = parseOrThrow(CallRecordingsQuery, request.query, 'call recordings query');
    await requireMayView(db, viewer);
    let range: { from?: Date; to?: Date };
    try {
      range = dayRange(q.start_date, q.end_date, q.tz);
    } catch (err) {
      if (err instanceof ApiError) throw new ApiError(400, 'validation_failed', 'Invalid call recordings query', err.details);
      throw err;
    }
    const { rows, total } = await findRecordings(db, { userId: viewer.userId, ...range, term: termPatterns(q.search_term), limit: q.limit, offset: q.offset });
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
    const { id } = parseOrThrow(IdParam, request.params, 'recording id');
    const org = await requireMayView(db, viewer);
    const audio = await recordingAudio(db, viewer.userId, id);
    if (!audio) throw notFound(`Recording ${id} not found`);
    if (org.fail_over) throw new ApiError(503, 'failover', 'Recordings are unavailable while the organisation is in failover');
    return sendMedia(request, reply, { bytes: Buffer.from(audio.bytes), contentType: audio.content_type });
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
    await setFailover(db, me.organizationId, body.fail_over);
    request.log.info({ organizationId: me.organizationId, failOver: body.fail_over, by: me.userId }, 'organisation failover changed');
    return { fail_over: body.fail_over };
  });
}
