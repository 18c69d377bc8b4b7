import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/types';
import { ApiError, unauthorized } from '../errors';
import { sessionLive } from './sessions';
import { TokenError, type TokenService } from './tokens';

const sessions = new WeakMap<FastifyRequest, string>();

/** The session the request's access token was issued under (after the guard passed it): a password change keeps it and ends the others. */
export const callerSession = (request: FastifyRequest): string | undefined => sessions.get(request);

/** Resolves the caller of a bearer-authenticated request, or throws 401. */
export function createGuard(tokens: TokenService, db: Queryable) {
  return async function requireUserId(request: FastifyRequest): Promise<number> {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthorized('Missing bearer token');
    let verified: { userId: number; sessionId?: string };
    try {
      verified = await tokens.verifyAccessToken(match[1]!);
    } catch (err) {
      // A validly signed token for another audience is a guest's: say what it is for.
      if (err instanceof TokenError && err.reason === 'bad_audience') throw new ApiError(401, 'guest_token', 'A guest token opens only its own meeting page');
      if (err instanceof TokenError) throw new ApiError(401, err.reason === 'expired' ? 'token_expired' : 'invalid_token', err.message);
      throw err;
    }
    // Every token this server signs names its session; one that does not cannot be revoked, so it is refused.
    if (!verified.sessionId || !(await sessionLive(db, verified.sessionId, verified.userId))) {
      throw new ApiError(401, 'session_ended', 'This session has ended: please log in again');
    }
    sessions.set(request, verified.sessionId);
    return verified.userId;
  };
}
export type RequireUserId = ReturnType<typeof createGuard>;
