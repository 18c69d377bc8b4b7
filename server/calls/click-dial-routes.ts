import type { FastifyInstance, FastifyReply } from 'fastify';
import { CLICK_DIAL_ERRORS as E, CLICK_DIAL_OFF, ClickDialRequest, ClickDialSetting, type ClickDialResponse } from '../../src/wire/clickDial';
import { clusterChannel, remotePhone, servePhone } from '../cluster-phones';
import { ApiError, parseOrThrow } from '../errors';
import type { RouteContext } from '../context';
import { preferenceOf } from '../preferences/repository';
import { isBrowserContact, registeredContacts } from '../services/kamailio-rpc';
import { extensionOf } from '../sip/extension';
import { startClickDialPhone, type ClickDialPhone, type RingOutcome } from './click-dial';
import { admitClickDial, CLICK_DIALS_PER_MINUTE, releaseClickDial } from './click-dial-limits';

export { CLICK_DIALS_PER_MINUTE };

const FAILURES: Record<Exclude<RingOutcome, 'calling'>, () => ApiError> = {
  no_device: () => new ApiError(409, E.noDevice, 'Your desk phone is not connected'),
  no_answer: () => new ApiError(409, E.noAnswer, 'Your desk phone did not answer'),
  declined: () => new ApiError(409, E.declined, 'Your desk phone declined the call'),
  failed: () => new ApiError(502, E.unavailable, 'The phone system could not ring your desk phone'),
};

/**
 * `POST /v1/calls/click-dial {number}`: "call my phone first". Rings the caller's own desk phone
 * and answers once it has been picked up and told to call the number (or why not). Only the API
 * server that drives the service phones (AppOptions.voicemail) has the click-dial phone; the other
 * processes of a cluster use it through the first (server/cluster-phones.ts).
 */
export function registerClickDialRoutes(app: FastifyInstance, { db, requireUserId, services, voicemail }: RouteContext, phone?: ClickDialPhone): void {
  const channel = phone ? null : clusterChannel();
  const clickDial = phone ?? (voicemail ? startClickDialPhone(services, app.log) : channel ? remotePhone<ClickDialPhone>(channel, 'clickDial', ['ring']) : null);
  const unserve = voicemail && !phone && clickDial && channel ? servePhone(channel, 'clickDial', clickDial) : null;
  if (!phone)
    app.addHook('onClose', async () => {
      unserve?.();
      clickDial?.close();
    });
  /** Counts this attempt, or refuses it (one at a time, so many a minute: click-dial-limits.ts). */
  async function admit(userId: number, reply: FastifyReply): Promise<void> {
    const admitted = await admitClickDial(db, userId);
    if (admitted.ok) return;
    if (admitted.reason === 'in_progress') throw new ApiError(409, E.inProgress, 'Your desk phone is already being rung for another call');
    reply.header('retry-after', String(admitted.retryAfter));
    throw new ApiError(429, E.tooMany, `At most ${CLICK_DIALS_PER_MINUTE} calls a minute through your desk phone`, undefined, admitted.retryAfter);
  }

  app.post('/v1/calls/click-dial', async (request, reply): Promise<ClickDialResponse> => {
    const userId = await requireUserId(request);
    const { number } = parseOrThrow(ClickDialRequest, request.body ?? {}, 'click-dial request');
    const saved = await preferenceOf(db, userId, 'uc-click-dial');
    const setting = ClickDialSetting.safeParse(saved?.value).data ?? CLICK_DIAL_OFF;
    if (!setting.enabled) throw new ApiError(409, E.off, '"Call my phone first" is off in your calling preferences');
    const extension = await extensionOf(db, userId);
    if (number === extension) throw new ApiError(400, E.ownNumber, 'That is your own extension');
    if (!clickDial?.ready) throw new ApiError(503, E.unavailable, 'Calling through your desk phone is not available right now');
    await admit(userId, reply);
    try {
      const contacts = await registeredContacts(services, extension).catch(() => {
        throw new ApiError(503, 'sip_unavailable', 'The phone system cannot be reached right now');
      });
      if (!contacts.some((c) => !isBrowserContact(c.address))) throw FAILURES.no_device();
      const outcome = await clickDial.ring(extension, number).catch((err: unknown) => {
        request.log.warn({ err }, 'click-dial failed');
        return 'failed' as const;
      });
      if (outcome !== 'calling') throw FAILURES[outcome]();
      request.log.info({ extension }, 'click-dial: the desk phone is calling');
      return { state: 'calling', device: setting.device, number };
    } finally {
      await releaseClickDial(db, userId);
    }
  });
}
