import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createGuard } from './auth/guard';
import { loadOrCreateJwtSecret } from './auth/jwt-secret';
import { createTokenService } from './auth/tokens';
import { createViewerLoader } from './auth/viewer';
import { contentSecurityPolicy } from './csp';
import type { Db } from './db/types';
import { frameworkErrorHandler, installErrorHandling } from './errors';
import { installInputGuard } from './input-guard';
import type { RouteContext } from './context';
// Features: server/<feature>/{routes,repository}.ts, as the client's plugins.
import { registerAnalyticsRoutes } from './analytics/routes';
import { registerAuthRoutes } from './auth/routes';
import { registerBrandingRoutes } from './branding/routes';
import type { ClickDialPhone } from './calls/click-dial';
import { registerClickDialRoutes } from './calls/click-dial-routes';
import { registerInboundRoutes } from './calls/inbound';
import { registerBroadRoutes } from './calls/routes';
import { registerRecordingRoutes } from './calls/recording-routes';
import { registerXmppRoutes } from './chat/routes';
import { registerConfigRoutes } from './config/routes';
import { registerContactRoutes } from './contacts/routes';
import { registerDeviceRoutes } from './devices/routes';
import { registerHealthRoutes } from './health/routes';
import { registerHistoryRoutes } from './history/routes';
import { registerMeetingRoutes, type MeetingsOptions } from './meetings/routes';
import { registerMobileRoutes } from './mobile/routes';
import { registerPreferenceRoutes } from './preferences/routes';
import { registerCallRecordingRoutes } from './recordings/routes';
import { registerSipInternalRoutes } from './sip/internal-routes';
import { registerSipRoutes } from './sip/routes';
import { loopbackCarrier } from './texts/carrier';
import { registerTextRoutes, type TextsOptions } from './texts/routes';
import { registerTurnRoutes } from './turn/routes';
import { registerUserRoutes } from './users/routes';
import { registerUcSettingsRoutes } from './users/uc-settings';
import { registerE911Routes } from './e911/routes';
import { registerVoicemailRoutes } from './voicemail/routes';
import { readServicesConfig, type ServicesConfig } from './services/layout';
import { readUccSettings, type UccSettings } from './settings';
import { registerSpa, spaFallback } from './spa';
import { registerSpeedDialRoutes } from './speed-dial/routes';
import { registerWizardRoutes } from './wizard/routes';
import { clientBuildReader } from './frame/client-build';
import { registerFrameRoutes } from './frame/routes';

export interface AppOptions {
  db: Db;
  /** Holds secrets/jwt.key (created on first start). */
  runtimeDir: string;
  logger?: FastifyServerOptions['logger'];
  /** The built client (dist/); served with SPA fallback when it has an index.html. */
  staticDir?: string;
  settings?: Partial<UccSettings>;
  /** Where the real servers are; defaults to the environment's port plan and this runtime folder. */
  services?: ServicesConfig;
  /**
   * Drive the voicemail phone of `services` (server/voicemail): only the API server of a running
   * product or test stack does, never a test's in-process app next to it (baresip takes one
   * control connection).
   */
  voicemail?: boolean;
  /** The click-dial phone to use instead of the one `voicemail` starts (tests of the route alone). */
  clickDialPhone?: ClickDialPhone;
  /** Texts: how they reach the clients and which carrier sends them (defaults: ejabberd, loopback). */
  texts?: TextsOptions;
  /** Meetings: chat notices, the clock, calendar feed limits (server/meetings/routes.ts). */
  meetings?: MeetingsOptions;
}

export interface RouteEntry {
  method: string;
  url: string;
}
const routeLists = new WeakMap<FastifyInstance, RouteEntry[]>();

/** Every route the app registered (HEAD twins left out): tests that must cover each route read it, so a new route is covered without being listed. */
export const registeredRoutes = (app: FastifyInstance): readonly RouteEntry[] => routeLists.get(app) ?? [];

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    frameworkErrors: frameworkErrorHandler,
    // Bodies here are small JSON documents; a preference value is at most 64 KiB.
    bodyLimit: 1024 * 1024,
  });

  // An empty JSON body (a bare POST /logout from fetch with a JSON content-type) means "no body",
  // not an error; everything else goes through Fastify's prototype-poisoning-safe parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    return parseJson(request, body as string, done);
  });

  const routes: RouteEntry[] = [];
  routeLists.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });

  installErrorHandling(app);
  installInputGuard(app);
  await app.register(fastifyCookie);

  const tokens = createTokenService(await loadOrCreateJwtSecret(opts.runtimeDir));
  const requireUserId = createGuard(tokens, opts.db);
  const ctx: RouteContext = {
    db: opts.db,
    tokens,
    requireUserId,
    requireViewer: createViewerLoader(requireUserId, opts.db),
    // A chat address given alone is the whole list: the environment's nodes must not outrank it.
    settings: { ...readUccSettings(), ...(opts.settings?.xmppWsUrl && !opts.settings.xmppWsUrls ? { xmppWsUrls: [opts.settings.xmppWsUrl] } : {}), ...opts.settings },
    services: opts.services ?? readServicesConfig(process.env, opts.runtimeDir),
    voicemail: opts.voicemail ?? false,
    carrier: opts.texts?.carrier ?? loopbackCarrier,
    runtimeDir: opts.runtimeDir,
    clientBuild: clientBuildReader(opts.staticDir),
  };

  const csp = contentSecurityPolicy(ctx.settings, ctx.services);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    const type = String(reply.getHeader('content-type') ?? '');
    // API answers are personal (voicemail, profiles, contacts): no browser or proxy may keep them
    // unless a route says otherwise (avatars and attachments set their own private caching).
    if (type.startsWith('application/json') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (type.startsWith('text/html')) {
      reply.header('content-security-policy', csp);
      // For browsers without CSP's frame-ancestors.
      reply.header('x-frame-options', 'DENY');
    }
  });
  registerHealthRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  registerConfigRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerUcSettingsRoutes(app, ctx);
  registerE911Routes(app, ctx);
  registerPreferenceRoutes(app, ctx);
  registerHistoryRoutes(app, ctx);
  registerContactRoutes(app, ctx);
  registerXmppRoutes(app, ctx);
  registerSipRoutes(app, ctx);
  registerTurnRoutes(app, ctx);
  registerDeviceRoutes(app, ctx);
  registerMobileRoutes(app, ctx);
  registerBrandingRoutes(app, ctx);
  registerClickDialRoutes(app, ctx, opts.clickDialPhone);
  registerSipInternalRoutes(app, ctx);
  registerBroadRoutes(app, ctx);
  registerInboundRoutes(app, ctx);
  registerSpeedDialRoutes(app, ctx);
  registerWizardRoutes(app, ctx);
  registerRecordingRoutes(app, ctx);
  registerAnalyticsRoutes(app, ctx);
  registerFrameRoutes(app, ctx);
  registerVoicemailRoutes(app, ctx);
  registerCallRecordingRoutes(app, ctx);
  registerTextRoutes(app, ctx, opts.texts);
  registerMeetingRoutes(app, ctx, opts.meetings);

  const servesClient = opts.staticDir ? await registerSpa(app, opts.staticDir) : false;
  app.setNotFoundHandler((request, reply) => {
    if (servesClient) {
      const sent = spaFallback(request, reply);
      if (sent) return sent;
    }
    const path = request.url.split('?', 1)[0];
    return reply.code(404).send({ error: 'not_found', message: `No route for ${request.method} ${path}` });
  });

  return app;
}
