import type { FastifyRequest } from 'fastify';
import { ApiError, unauthorized } from '../errors';
import { TokenError, type TokenService } from './tokens';

/** Resolves the caller of a bearer-authenticated request, or throws 401. */
export function createGuard(tokens: TokenService) {
  return async function requireUserId(request: FastifyRequest): Promise<number> {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthorized('Missing bearer token');
    try {
      return (await tokens.verifyAccessToken(match[1]!)).userId;
    } catch (err) {
      if (err instanceof TokenError) throw new ApiError(401, err.reason === 'expired' ? 'token_expired' : 'invalid_token', err.message);
      throw err;
    }
  };
}
export type RequireUserId = ReturnType<typeof createGuard>;
