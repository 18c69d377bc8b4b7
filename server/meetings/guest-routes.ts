import type { FastifyInstance, FastifyReply } from 'fastify';
import { GuestJoinRequest, MEETING_ERRORS, type GuestJoinResponse } from '../../src/wire/meetings';
import { GUEST_TOKEN_TTL_SECONDS } from '../auth/tokens';
import { blockedFor, recordFailure, type ThrottleKey } from '../auth/throttle';
import type { RouteContext } from '../context';
import { ApiError, notFound, parseOrThrow } from '../errors';
import * as guests from './guest-repository';
import { meetingIdOfSlug, meetingSlug } from './model';
import * as repo from './repository';
import type { MeetingsShared } from './routes';
import { openOccurrence } from './service';

/**
 * `POST /v1/meetings/guest`: someone without an account joins with the meeting's ID (or its link's
 * slug), an e-mail address, a name and the PIN when there is one, and gets a guest token for that
 * meeting alone. Unknown meetings and wrong PINs count as failed sign-ins do (per meeting ID and
 * per client address, the same table and delays), so neither IDs nor PINs can be guessed at speed.
 */
export function registerGuestRoutes(app: FastifyInstance, { db, tokens }: RouteContext, { cfg }: MeetingsShared): void {
  const throttled = (reply: FastifyReply, seconds: number) => {
    reply.header('retry-after', String(seconds));
    return new ApiError(429, 'too_many_attempts', `Too many failed attempts: try again in ${seconds} seconds`, undefined, seconds);
  };
  const failed = async (reply: FastifyReply, keys: ThrottleKey[], refusal: ApiError): Promise<never> => {
    const delay = await recordFailure(db, keys);
    throw delay > 0 ? throttled(reply, delay) : refusal;
  };

  app.post('/v1/meetings/guest', async (request, reply): Promise<GuestJoinResponse> => {
    const input = parseOrThrow(GuestJoinRequest, request.body, 'guest join');
    const keys: ThrottleKey[] = [
      { kind: 'account', key: `guest-meeting:${input.meeting}` },
      { kind: 'client', key: `client:${request.ip}` },
    ];
    const wait = await blockedFor(db, keys);
    if (wait > 0) throw throttled(reply, wait);
    const slugId = /^\d+$/.test(input.meeting) ? null : meetingIdOfSlug(input.meeting);
    const row = slugId !== null ? await repo.meetingById(db, slugId) : /^\d+$/.test(input.meeting) ? await repo.meetingByCode(db, input.meeting) : null;
    if (!row) return failed(reply, keys, notFound('No meeting has this ID'));
    openOccurrence(row, cfg.now());
    if (row.pin !== null && input.pin !== row.pin) return failed(reply, keys, new ApiError(403, 'wrong_pin', MEETING_ERRORS.wrongPin));
    const guestId = await guests.insertGuest(db, row.id, input.email.toLowerCase(), input.name);
    reply.header('cache-control', 'no-store');
    return {
      access_token: await tokens.signGuestToken(String(guestId), String(row.id)),
      token_type: 'Bearer',
      expires_in: GUEST_TOKEN_TTL_SECONDS,
      meeting_id: row.id,
      slug: meetingSlug(row.id),
      guest_id: guestId,
      name: input.name,
    };
  });
}
