import type { FastifyInstance } from 'fastify';
import { RegReserveRequest, type RegActiveResponse, type SipCredentialsResponse } from '../../src/wire/services';
import type { RouteContext } from '../context';
import { parseOrThrow } from '../errors';
import { sipEphemeralSecret } from '../services/kamailio';
import type { ServicesConfig } from '../services/layout';
import { mintSipCredentials, SIP_CREDENTIAL_TTL_SECONDS } from '../services/sip-credentials';
import { turnAvailable, turnIssuer } from '../turn/routes';
import { extensionOf } from './extension';
import { activeRegistration, releaseRegistration, reserveRegistration } from './repository';

/** Cached per runtime folder: the secret file is created once and never changes while running. */
function secretLoader(cfg: ServicesConfig): () => Promise<string> {
  let secret: Promise<string> | null = null;
  return () => {
    secret ??= sipEphemeralSecret(cfg).catch((err: unknown) => {
      secret = null;
      throw err;
    });
    return secret;
  };
}

/** SIP: `GET /v1/sip-credentials` (auth_ephemeral), `GET /v1/regactive`, `POST /v1/regreserve`. */
export function registerSipRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { db, requireUserId, settings, services } = ctx;
  const secret = secretLoader(services);
  const turn = turnIssuer(ctx);

  app.get('/v1/sip-credentials', async (request, reply): Promise<SipCredentialsResponse> => {
    const userId = await requireUserId(request);
    const extension = await extensionOf(db, userId);
    const creds = mintSipCredentials(await secret(), extension, services.domain, SIP_CREDENTIAL_TTL_SECONDS);
    reply.header('cache-control', 'no-store');
    // Several Kamailios (a cluster): the browser's JsSIP fails over between them.
    const urls = settings.sipWsUrls.length > 1 ? { ws_urls: settings.sipWsUrls } : {};
    if (!(await turnAvailable(ctx))) return { ...creds, ws_url: settings.sipWsUrl, ...urls };
    // The TURN credential outlives the SIP one and is renewed with it: a call keeps its relay.
    const relay = await turn(userId);
    return { ...creds, ws_url: settings.sipWsUrl, ...urls, ice_servers: [{ urls: relay.urls, username: relay.username, credential: relay.credential }] };
  });

  app.get('/v1/regactive', async (request): Promise<RegActiveResponse> => {
    const userId = await requireUserId(request);
    await extensionOf(db, userId);
    return activeRegistration(db, userId);
  });

  app.post('/v1/regreserve', async (request): Promise<RegActiveResponse> => {
    const userId = await requireUserId(request);
    const body = parseOrThrow(RegReserveRequest, request.body ?? {}, 'registration reservation');
    await extensionOf(db, userId);
    if (body.release) return releaseRegistration(db, userId, body.peer);
    return reserveRegistration(db, userId, body.peer, { takeover: body.takeover });
  });
}
