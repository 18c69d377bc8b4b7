import type { FastifyInstance } from 'fastify';
import type { TurnCredentialsResponse } from '../../src/wire/services';
import type { RouteContext } from '../context';
import { coturn } from '../services/coturn';
import { runningPid } from '../services/proc';
import { mintTurnCredentials, TURN_CREDENTIAL_TTL_SECONDS, turnSecret } from './credentials';

/** coturn's address and a fresh credential of one user, as the API hands them out (meetings use it too). */
export function turnIssuer({ settings, services }: Pick<RouteContext, 'settings' | 'services'>): (userId: number | string) => Promise<TurnCredentialsResponse> {
  let secret: Promise<string> | null = null;
  return async (userId) => {
    secret ??= turnSecret(services).catch((err: unknown) => {
      secret = null;
      throw err;
    });
    const creds = mintTurnCredentials(await secret, userId);
    return { urls: settings.turnUrls, username: creds.username, credential: creds.credential, ttl_seconds: TURN_CREDENTIAL_TTL_SECONDS, expires_at: creds.expiresAt.toISOString() };
  };
}

/**
 * Whether browsers should be told about the TURN server: one elsewhere (UC_TURN_HOST) is assumed up;
 * the project's own counts when it runs. A TURN server that does not answer would hold up every
 * call's ICE gathering (and with it the INVITE) while the browser waits for it.
 */
export async function turnAvailable({ settings, services }: Pick<RouteContext, 'settings' | 'services'>): Promise<boolean> {
  return settings.turnExternal === true || (await runningPid(coturn.pidFile(services))) !== null;
}

/** `GET /v1/turn-credentials`: for calls (and anything else that needs a relay). */
export function registerTurnRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const issue = turnIssuer(ctx);
  app.get('/v1/turn-credentials', async (request, reply): Promise<TurnCredentialsResponse> => {
    const userId = await ctx.requireUserId(request);
    reply.header('cache-control', 'no-store');
    return issue(userId);
  });
}
