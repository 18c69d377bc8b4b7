import type { FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { JWT_GUEST_PREFIX } from '../../src/wire/auth';
import { MEETING_ERRORS } from '../../src/wire/meetings';
import { TokenError } from '../auth/tokens';
import type { Viewer } from '../auth/viewer';
import type { RouteContext } from '../context';
import { ApiError, notFound } from '../errors';
import * as guests from './guest-repository';
import * as repo from './repository';

/** Who calls one of the meeting page's routes: a user of the meeting's organisation, or a guest of that meeting. */
export type MeetingCaller = { kind: 'user'; viewer: Viewer } | { kind: 'guest'; guestId: number; name: string };

/** The caller's id in the lobby's terms: guests carry their guest id negated (see LobbyOccupant). */
export const occupantId = (c: MeetingCaller): number => (c.kind === 'user' ? c.viewer.userId : -c.guestId);

const bearerOf = (request: FastifyRequest): string | null => /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;

/** Whether the bearer token claims to be a guest's (unverified: it only picks which check runs). */
function claimsGuest(token: string | null): boolean {
  if (!token) return false;
  try {
    const sub = decodeJwt(token).sub;
    return typeof sub === 'string' && sub.startsWith(JWT_GUEST_PREFIX);
  } catch {
    return false;
  }
}

/**
 * The meeting and its caller, for the routes a meeting page calls (info, lobby, media). A user sees
 * their organisation's meetings (another's answer 404); a guest token opens only the meeting its
 * audience names (any other answers 403), and only while its guest row exists (the meeting kept).
 */
export function meetingAccess({ db, tokens, requireViewer }: Pick<RouteContext, 'db' | 'tokens' | 'requireViewer'>) {
  return async function meetingFor(request: FastifyRequest, meetingId: number): Promise<{ caller: MeetingCaller; row: repo.MeetingRow }> {
    const token = bearerOf(request);
    if (!claimsGuest(token)) {
      const viewer = await requireViewer(request);
      const row = await repo.meetingInOrg(db, viewer.organizationId, meetingId);
      if (!row) throw notFound(`Meeting ${meetingId} not found`);
      return { caller: { kind: 'user', viewer }, row };
    }
    let guestId: string;
    try {
      ({ guestId } = await tokens.verifyGuestToken(token!, String(meetingId)));
    } catch (err) {
      if (err instanceof TokenError && err.reason === 'bad_audience') throw new ApiError(403, 'guest_other_meeting', MEETING_ERRORS.guestOnly);
      if (err instanceof TokenError) throw new ApiError(401, err.reason === 'expired' ? 'token_expired' : 'invalid_token', err.message);
      throw err;
    }
    const id = /^[1-9]\d{0,9}$/.test(guestId) ? Number(guestId) : 0;
    const guest = id > 0 && id <= 2 ** 31 - 1 ? await guests.guestOf(db, meetingId, id) : null;
    const row = guest ? await repo.meetingById(db, meetingId) : null;
    if (!guest || !row) throw new ApiError(401, 'invalid_token', 'This guest token is no longer valid');
    return { caller: { kind: 'guest', guestId: guest.id, name: guest.name }, row };
  };
}
export type MeetingFor = ReturnType<typeof meetingAccess>;
