import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './context';

/** XMPP: `GET /v1/xmpp-token` (short-lived ejabberd login JWT). Provisioning lives in server/services/xmpp-provision.ts. */
export function registerXmppRoutes(_app: FastifyInstance, _ctx: RouteContext): void {}
