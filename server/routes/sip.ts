import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './context';

/** SIP: `GET /v1/sip-credentials` (auth_ephemeral), `GET /v1/regactive`, `POST /v1/regreserve`. */
export function registerSipRoutes(_app: FastifyInstance, _ctx: RouteContext): void {}
