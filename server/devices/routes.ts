import type { FastifyInstance } from 'fastify';
import type { DevicesCheckResponse } from '../../src/wire/calling';
import { ApiError } from '../errors';
import { isBrowserContact, registeredContacts } from '../services/kamailio-rpc';
import type { RouteContext } from '../context';
import { extensionOf } from '../sip/extension';

/**
 * `GET /v1/devices/check`: which of the caller's own phones the SIP proxy can reach now (its
 * registrar is the only one that knows), so that the client offers "Move call to desk phone"
 * only when there is one.
 */
export function registerDeviceRoutes(app: FastifyInstance, { db, requireUserId, services }: RouteContext): void {
  app.get('/v1/devices/check', async (request, reply): Promise<DevicesCheckResponse> => {
    const userId = await requireUserId(request);
    const extension = await extensionOf(db, userId);
    const contacts = await registeredContacts(services, extension).catch((err: unknown) => {
      request.log.warn({ err }, 'devices: the SIP registrar did not answer');
      throw new ApiError(503, 'sip_unavailable', 'The phone system cannot be reached right now');
    });
    reply.header('cache-control', 'no-store');
    const now = Date.now();
    const devices = contacts.map((c) => ({
      kind: isBrowserContact(c.address) ? ('browser' as const) : ('phone' as const),
      user_agent: c.userAgent,
      expires_at: new Date(now + c.expires * 1000).toISOString(),
    }));
    return { devices, desk_phone: devices.some((d) => d.kind === 'phone') };
  });
}
