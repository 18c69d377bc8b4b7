import type { FastifyInstance } from 'fastify';
import { ChatContactsResponse, XmppTokenResponse } from '../../src/wire/services';
import { ROLE } from '../../src/wire/profile';
import { JWT_USER_PREFIX } from '../../src/wire/auth';
import { ApiError, forbidden } from '../errors';
import { ejabberdNodes } from '../services/ejabberd-nodes';
import { tcpOpen } from '../services/proc';
import { XmppApiError } from '../services/xmpp-api';
import { ensureXmppAccount, provisionAll, type ProvisionReport } from '../services/xmpp-provision';
import { mintXmppToken, xmppJid } from '../services/xmpp-token';
import type { RouteContext } from '../context';
import { enforcePresenceSharing } from './presence-sharing';
import { ucSettingsOf } from '../users/uc-settings-repository';
import { chatColleagues } from './repository';
import { registerChatRoomRoutes } from './rooms';

const xmppUnavailable = () => new ApiError(503, 'xmpp_unavailable', 'Chat server is not reachable');

/** XMPP: `GET /v1/xmpp-token` (short-lived ejabberd login JWT), and the provisioning sweep at startup. */
export function registerXmppRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { db, requireViewer, services, settings } = ctx;

  app.get('/v1/xmpp-token', async (request): Promise<XmppTokenResponse> => {
    const user = await requireViewer(request);
    const { userId } = user;
    if (user.roleId === ROLE.LIMITED_ACCESS) throw forbidden('Chat is not available for your role');
    // A user created after the startup sweep can chat at once; an existing account costs one request.
    try {
      await ensureXmppAccount(services, user.username);
    } catch (err) {
      if (err instanceof XmppApiError) {
        request.log.error({ err }, 'ejabberd refused to provision the account');
        throw new ApiError(502, 'xmpp_provisioning_failed', 'Chat server refused to set up the account');
      }
      request.log.warn({ err }, 'ejabberd not reachable');
      throw xmppUnavailable();
    }
    // share_presence is enforced by ejabberd; applied again at each login in case ejabberd missed a change (it was down).
    const share = (await ucSettingsOf(db, userId)).share_presence;
    if (process.env.UC_XMPP_PROVISIONING !== 'off') await enforcePresenceSharing(services, user.username, share).catch((err: unknown) => request.log.warn({ err }, 'share_presence not enforced in ejabberd'));
    const minted = await mintXmppToken(services, { username: user.username, subject: `${JWT_USER_PREFIX}${userId}` });
    return XmppTokenResponse.parse({
      jid: minted.jid,
      token: minted.token,
      expires_at: new Date(minted.exp * 1000).toISOString(),
      ws_url: settings.xmppWsUrl,
      ...(settings.xmppWsUrls.length > 1 ? { ws_urls: settings.xmppWsUrls } : {}),
    });
  });

  app.get('/v1/chat/contacts', async (request): Promise<ChatContactsResponse> => {
    const me = await requireViewer(request);
    const { userId } = me;
    if (me.roleId === ROLE.LIMITED_ACCESS) throw forbidden('Chat is not available for your role');
    const rows = await chatColleagues(db, me.organizationId, userId);
    return {
      contacts: rows.map((u) => ({ user_id: u.id, jid: xmppJid(services, u.username), name: `${u.first_name} ${u.last_name}`.trim() || u.username })),
    };
  });

  registerChatRoomRoutes(app, ctx);
  startXmppProvisioning(app, ctx);
}

/** Waits between attempts while ejabberd is down or still starting; then gives up quietly. */
const RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 20_000, 30_000];
const GIVE_UP_AFTER_MS = 5 * 60_000;

const runs = new WeakMap<FastifyInstance, Promise<ProvisionReport | null>>();

/**
 * The startup sweep of this app: its report, or null when it was skipped, gave up or was cancelled
 * by close. Undefined before the app is ready.
 */
export const xmppProvisioning = (app: FastifyInstance): Promise<ProvisionReport | null> | undefined => runs.get(app);

/**
 * Provisions every chat account and room in the background once the app is ready. Startup and
 * /health never wait for it; ejabberd may start after the API server (or not at all, as in the unit
 * tests), so a closed port only schedules a retry on an unref'd timer, and close cancels it.
 * `UC_XMPP_PROVISIONING=off` disables it.
 */
export function startXmppProvisioning(app: FastifyInstance, ctx: RouteContext): void {
  if (process.env.UC_XMPP_PROVISIONING === 'off') return;
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let finish: (r: ProvisionReport | null) => void = () => {};

  const attempt = async (n: number, startedAt: number): Promise<void> => {
    if (abort.signal.aborted) return finish(null);
    let lastError: unknown;
    // Any node of a cluster provisions for all (xmppApi falls back from one to the next).
    if ((await Promise.all(ejabberdNodes(ctx.services).map((n) => tcpOpen(n.api)))).some(Boolean)) {
      try {
        const report = await provisionAll(ctx.services, ctx.db, { signal: abort.signal });
        if (report.failures.length) app.log.warn({ xmppProvisioning: report }, 'chat provisioning: ejabberd refused some accounts or rooms');
        else app.log.info({ xmppProvisioning: report }, 'chat accounts and rooms provisioned');
        return finish(report);
      } catch (err) {
        if (abort.signal.aborted) return finish(null);
        lastError = err;
      }
    }
    if (Date.now() - startedAt > GIVE_UP_AFTER_MS) {
      app.log.info({ err: lastError }, 'chat provisioning gave up: ejabberd did not answer (accounts are still made at each token request)');
      return finish(null);
    }
    // Debug only: ejabberd starting after us is normal, not worth a warning per attempt.
    app.log.debug({ err: lastError, attempt: n }, 'chat provisioning: ejabberd not ready, will retry');
    timer = setTimeout(() => run(n + 1, startedAt), RETRY_DELAYS_MS[Math.min(n, RETRY_DELAYS_MS.length - 1)]);
    timer.unref();
  };

  // Never an unhandled rejection: a failure here must not take the API server down.
  const run = (n: number, startedAt: number) =>
    void attempt(n, startedAt).catch((err: unknown) => {
      app.log.warn({ err }, 'chat provisioning failed');
      finish(null);
    });

  app.addHook('onReady', async () => {
    runs.set(app, new Promise((resolve) => (finish = resolve)));
    run(0, Date.now());
  });
  app.addHook('onClose', async () => {
    abort.abort();
    if (timer) clearTimeout(timer);
    finish(null);
  });
}
