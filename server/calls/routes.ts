import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import {
  DoNotDisturb,
  FORWARD_TYPES,
  ForwardSetting,
  forwardProblem,
  NOT_AUTHORIZED_TO_UPDATE,
  type Destination,
} from '../../src/wire/calling';
import { ROLE } from '../../src/wire/profile';
import type { Viewer } from '../auth/viewer';
import { ApiError, forbidden, parseOrThrow } from '../errors';
import type { Queryable } from '../db/types';
import type { RouteContext } from '../context';
import { callRouting, colleaguesWithExtension, extensionOf, extensionUser, setDoNotDisturb, setForward } from './repository';
import { IdParam } from '../../src/wire/common';
import type { DestinationsCatalogue } from '../../src/wire/inbound';
import { destinationTypes } from './inbound';

const ForwardTypeParam = z.object({ type: z.enum(FORWARD_TYPES) });

const OFF: ForwardSetting = { enabled: false, destination: null };

/**
 * Limited-access users may see where their calls go but not change it; the refusal text contains
 * 'authorized', which is what the client matches to show its no-permission notice.
 */
function assertMayUpdate(viewer: Viewer): void {
  if (viewer.roleId === ROLE.LIMITED_ACCESS) throw forbidden(NOT_AUTHORIZED_TO_UPDATE);
}

const FORWARD_MESSAGES: Record<NonNullable<ReturnType<typeof forwardProblem>>, string> = {
  destination_required: 'Choose where to forward calls',
  destination_id_required: 'Choose the extension to forward calls to',
  destination_number_invalid: 'Enter an extension or a phone number to forward calls to',
  destination_not_available: 'Calls cannot be forwarded to this kind of destination here',
};

/** The user's own voicemail box as a forwarding destination (the mailbox is their extension). */
async function ownBox(db: Queryable, userId: number): Promise<Destination> {
  const extension = await extensionOf(db, userId);
  if (!extension) throw new ApiError(400, 'validation_failed', 'You have no voicemail box', [{ path: 'destination.destination_type', message: 'destination_not_available' }]);
  return { destination_type: 'box', destination_id: String(userId), destination_name: null, destination_parameter: extension };
}

/**
 * An `ext` destination must name a user of the caller's own organisation, and its real extension;
 * `box` is always the caller's own mailbox.
 */
async function resolveExtension(db: Queryable, organizationId: number, userId: number, d: Destination): Promise<Destination> {
  if (d.destination_type === 'box') return ownBox(db, userId);
  // A number has no name or id the server could vouch for: only the digits are kept.
  if (d.destination_type !== 'ext') return { destination_type: d.destination_type, destination_id: null, destination_name: null, destination_parameter: d.destination_parameter!.replace(/[\s()-]/g, '') };
  const userRef = IdParam.safeParse({ id: d.destination_id });
  const u = userRef.success ? await extensionUser(db, organizationId, userRef.data.id) : null;
  if (!u) {
    throw new ApiError(400, 'validation_failed', 'Invalid forwarding setting', [{ path: 'destination.destination_id', message: 'destination_id_required' }]);
  }
  return { destination_type: 'ext', destination_id: String(u.id), destination_name: u.name, destination_parameter: u.extension };
}

/**
 * Do-not-disturb and call forwarding (`/v1/broad/…`). What is saved here is what Kamailio enforces:
 * it asks the API how to route every incoming call (server/sip/internal-routes.ts).
 */
export function registerBroadRoutes(app: FastifyInstance, { db, requireUserId, requireViewer }: RouteContext): void {
  app.get('/v1/broad/donotdisturb', async (request): Promise<DoNotDisturb> => {
    const userId = await requireUserId(request);
    return { do_not_disturb: (await callRouting(db, userId)).do_not_disturb };
  });

  app.put('/v1/broad/donotdisturb', async (request): Promise<DoNotDisturb> => {
    const viewer = await requireViewer(request);
    const { userId } = viewer;
    const body = parseOrThrow(DoNotDisturb, request.body, 'do-not-disturb setting');
    assertMayUpdate(viewer);
    await setDoNotDisturb(db, userId, body.do_not_disturb);
    return body;
  });

  app.get('/v1/broad/forwards/:type', async (request): Promise<ForwardSetting> => {
    const userId = await requireUserId(request);
    const { type } = parseOrThrow(ForwardTypeParam, request.params, 'forward type');
    const row = await callRouting(db, userId);
    return (type === 'always' ? row.forward_always : row.forward_default) ?? OFF;
  });

  app.put('/v1/broad/forwards/:type', async (request): Promise<ForwardSetting> => {
    const me = await requireViewer(request);
    const { userId } = me;
    const { type } = parseOrThrow(ForwardTypeParam, request.params, 'forward type');
    const body = parseOrThrow(ForwardSetting, request.body, 'forwarding setting');
    assertMayUpdate(me);
    // Disabled keeps the destination, so switching it back on needs no new choice; it is checked
    // (and stored as the server resolves it) exactly as if it were on.
    const problem = forwardProblem(body.destination ? { ...body, enabled: true } : body);
    if (problem) {
      const path = problem === 'destination_required' ? 'destination' : problem === 'destination_id_required' ? 'destination.destination_id' : 'destination.destination_parameter';
      throw new ApiError(400, 'validation_failed', FORWARD_MESSAGES[problem], [{ path, message: problem }]);
    }
    const saved: ForwardSetting = { enabled: body.enabled, destination: body.destination && (await resolveExtension(db, me.organizationId, userId, body.destination)) };
    await setForward(db, userId, type, saved);
    return saved;
  });

  app.get('/v1/broad/destinations', async (request): Promise<DestinationsCatalogue> => {
    const me = await requireViewer(request);
    const { userId } = me;
    // Colleagues with an extension; an outside number is typed, not listed.
    const rows = await colleaguesWithExtension(db, me.organizationId, userId);
    const box = await ownBox(db, userId).catch(() => null);
    return {
      items: [
        // The user's own voicemail first (the usual place for calls they cannot take).
        ...(box ? [box] : []),
        ...rows.map((u): Destination => ({ destination_type: 'ext', destination_id: String(u.id), destination_name: u.name, destination_parameter: u.extension })),
      ],
      types: await destinationTypes(db, me),
    };
  });
}
