import type { FastifyInstance } from 'fastify';
import { DESTINATION_TYPES, NOT_AUTHORIZED_TO_UPDATE } from '../../src/wire/calling';
import { IdParam } from '../../src/wire/common';
import {
  AVAILABLE_DESTINATION_TYPES,
  DEFAULT_FIND_ME,
  FindMe,
  findMeProblems,
  INBOUND_RULES,
  InboundRoutes,
  inboundProblems,
  NO_ROUTE,
  ROUTE_PROBLEM_MESSAGES,
  UNAVAILABLE_DESTINATION_REASONS,
  type DestinationTypeInfo,
  type InboundRoute,
  type RouteProblem,
  type RouteProblemDetail,
} from '../../src/wire/inbound';
import { ROLE } from '../../src/wire/profile';
import type { Viewer } from '../auth/viewer';
import type { RouteContext } from '../context';
import type { Queryable } from '../db/types';
import { ApiError, forbidden, parseOrThrow } from '../errors';
import multipart from '@fastify/multipart';
import { createHash } from 'node:crypto';
import { readUpload } from '../media/upload';
import { checkRecordedName, NAME_MAX_MS, NAME_MIN_MS, writeNamedAnnouncement } from './find-me-name';
import { callRouting, colleaguesWithExtension, extensionGroups, extensionOf, extensionUser, isExtensionGroupOf, recordedName, setRecordedName, setRoutingJson } from './repository';

/** The specification: viewing the calling rules needs permission too (limited-access users see a notice). */
export const NOT_AUTHORIZED_TO_VIEW = 'You are not authorized to view calling settings';

function assertMay(viewer: Viewer, change: boolean): void {
  if (viewer.roleId === ROLE.LIMITED_ACCESS) throw forbidden(change ? NOT_AUTHORIZED_TO_UPDATE : NOT_AUTHORIZED_TO_VIEW);
}

function refuse(problems: RouteProblemDetail[]): never {
  throw new ApiError(400, 'validation_failed', ROUTE_PROBLEM_MESSAGES[problems[0]!.message], problems);
}

const cleanNumber = (s: string) => s.replace(/[\s()-]/g, '');
const storedId = (value: string | null): number | null => {
  const id = IdParam.safeParse({ id: value });
  return id.success ? id.data.id : null;
};

/**
 * A rule as it is stored: the value checked against the caller's organisation (a user with an
 * extension for box and ext, never the caller for ext; one of its groups), a number reduced to what
 * is dialled, and only the fields its drop uses.
 */
async function resolveRoute(db: Queryable, me: Viewer, r: InboundRoute, path: string): Promise<InboundRoute> {
  const at = (message: RouteProblem) => refuse([{ path: `${path}.value`, message }]);
  switch (r.drop) {
    case null:
      return NO_ROUTE;
    case 'box':
    case 'ext': {
      const id = storedId(r.value);
      const user = id === null ? null : await extensionUser(db, me.organizationId, id);
      if (!user || (r.drop === 'ext' && user.id === me.userId)) return at(r.drop === 'box' ? 'ERROR_BOX' : 'ERROR_EXT');
      return { drop: r.drop, value: String(user.id), phoneTime: null };
    }
    case 'group': {
      const id = storedId(r.value);
      if (id === null || !(await isExtensionGroupOf(db, me.organizationId, id))) return at('ERROR_GROUP');
      return { drop: 'group', value: String(id), phoneTime: null };
    }
    case 'phone':
    case 'outside':
      return { drop: r.drop, value: cleanNumber(r.value!), phoneTime: r.phoneTime };
    default:
      return { drop: r.drop, value: null, phoneTime: null };
  }
}

/** The caller's own extension must exist for any rule: calls reach a user through it. */
async function assertHasExtension(db: Queryable, me: Viewer): Promise<void> {
  if (!(await extensionUser(db, me.organizationId, me.userId))) throw new ApiError(404, 'sip_not_configured', 'Calling is not configured for this user');
}

/** What each destination type can route to here (`GET /v1/broad/destinations`'s `types`). */
export async function destinationTypes(db: Queryable, me: Viewer): Promise<DestinationTypeInfo[]> {
  const [colleagues, self, groups] = await Promise.all([
    colleaguesWithExtension(db, me.organizationId, me.userId),
    extensionUser(db, me.organizationId, me.userId),
    extensionGroups(db, me.organizationId),
  ]);
  const boxes = [...(self ? [self] : []), ...colleagues];
  const options: Partial<Record<(typeof AVAILABLE_DESTINATION_TYPES)[number], DestinationTypeInfo['options']>> = {
    box: boxes.map((u) => ({ value: String(u.id), name: u.name, number: u.extension })),
    ext: colleagues.map((u) => ({ value: String(u.id), name: u.name, number: u.extension })),
    group: groups.map((g) => ({ value: String(g.id), name: g.name, number: null })),
  };
  return DESTINATION_TYPES.map((type): DestinationTypeInfo => {
    const reason = (UNAVAILABLE_DESTINATION_REASONS as Record<string, string | undefined>)[type] ?? null;
    return { type, available: reason === null, reason, options: options[type as keyof typeof options] ?? null };
  });
}

/**
 * The inbound rules and the find-me list (`/v1/broad/inbound`, `/v1/broad/find-me`). What is saved
 * here decides where real calls go: Kamailio asks the API at every call (server/sip/routing.ts).
 */
export function registerInboundRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { db, requireViewer } = ctx;
  void app.register(async (scope) => findMeNameRoutes(scope, ctx));

  app.get('/v1/broad/inbound', async (request): Promise<InboundRoutes> => {
    const me = await requireViewer(request);
    assertMay(me, false);
    const saved = (await callRouting(db, me.userId)).inbound_routes;
    return Object.fromEntries(INBOUND_RULES.map((rule) => [rule, saved?.[rule] ?? NO_ROUTE])) as InboundRoutes;
  });

  app.put('/v1/broad/inbound', async (request): Promise<InboundRoutes> => {
    const me = await requireViewer(request);
    assertMay(me, true);
    const body = parseOrThrow(InboundRoutes, request.body, 'inbound routes');
    const problems = inboundProblems(body);
    if (problems.length) refuse(problems);
    await assertHasExtension(db, me);
    const saved = {} as InboundRoutes;
    for (const rule of INBOUND_RULES) saved[rule] = await resolveRoute(db, me, body[rule], rule);
    await setRoutingJson(db, me.userId, 'inbound_routes', saved);
    return saved;
  });

  app.get('/v1/broad/find-me', async (request): Promise<FindMe> => {
    const me = await requireViewer(request);
    assertMay(me, false);
    return (await callRouting(db, me.userId)).find_me ?? DEFAULT_FIND_ME;
  });

  app.put('/v1/broad/find-me', async (request): Promise<FindMe> => {
    const me = await requireViewer(request);
    assertMay(me, true);
    const body = parseOrThrow(FindMe, request.body, 'find-me settings');
    const problems = findMeProblems(body);
    if (problems.length) refuse(problems);
    await assertHasExtension(db, me);
    const saved: FindMe = {
      ...body,
      locations: body.locations.map((l) => ({ ...l, number: l.type === 'mobile' || l.type === 'number' ? cleanNumber(l.number!) : null })),
      afterHoursNextStep: await resolveRoute(db, me, body.afterHoursNextStep, 'afterHoursNextStep'),
      simultaneous_next_step: await resolveRoute(db, me, body.simultaneous_next_step, 'simultaneous_next_step'),
    };
    await setRoutingJson(db, me.userId, 'find_me', saved);
    return saved;
  });
}

/** Six seconds of 48 kHz 16-bit stereo, with room for the header. */
const NAME_MAX_BYTES = 1200 * 1024;

const NAME_PROBLEMS = {
  not_wav: 'The recorded name must be a 16-bit PCM WAV file',
  too_short: `The recorded name must last at least ${NAME_MIN_MS / 1000} s`,
  too_long: `The recorded name must last at most ${NAME_MAX_MS / 1000} s`,
} as const;

/**
 * Find-me's recorded name (`/v1/broad/find-me/name`): the WAV itself (PUT with `audio/wav`, GET to
 * hear it again, DELETE). Saving it also writes the announcement callers hear (find-me-name.ts).
 */
async function findMeNameRoutes(app: FastifyInstance, { db, requireViewer, services }: RouteContext): Promise<void> {
  app.addContentTypeParser('audio/wav', { parseAs: 'buffer', bodyLimit: NAME_MAX_BYTES }, (_req, body, done) => done(null, body));
  // The browser's upload: one file in a multipart form, as the client's API sends files.
  await app.register(multipart, { limits: { fileSize: NAME_MAX_BYTES, files: 1, fields: 0 } });
  const tooLarge = () => new ApiError(413, 'name_too_large', 'The recorded name is too large');

  app.get('/v1/broad/find-me/name', async (request, reply) => {
    const me = await requireViewer(request);
    assertMay(me, false);
    const wav = await recordedName(db, me.userId);
    if (!wav) throw new ApiError(404, 'not_found', 'No recorded name');
    return reply.type('audio/wav').header('cache-control', 'no-store').send(wav);
  });

  app.put('/v1/broad/find-me/name', async (request, reply) => {
    const me = await requireViewer(request);
    assertMay(me, true);
    await assertHasExtension(db, me);
    const extension = (await extensionOf(db, me.userId))!;
    const wav = request.isMultipart() ? (await readUpload(request, tooLarge))?.bytes : request.body;
    if (!Buffer.isBuffer(wav)) throw new ApiError(415, 'unsupported_media_type', 'Send the recorded name as audio/wav');
    const checked = checkRecordedName(wav);
    if ('problem' in checked) throw new ApiError(400, `name_${checked.problem}`, NAME_PROBLEMS[checked.problem]);
    await setRecordedName(db, me.userId, { wav, sha256: createHash('sha256').update(wav).digest('hex'), durationMs: checked.durationMs });
    await writeNamedAnnouncement(services.runtimeDir, extension, wav);
    return reply.code(204).send();
  });

  app.delete('/v1/broad/find-me/name', async (request, reply) => {
    const me = await requireViewer(request);
    assertMay(me, true);
    await setRecordedName(db, me.userId, null);
    const extension = await extensionOf(db, me.userId);
    if (extension) await writeNamedAnnouncement(services.runtimeDir, extension, null);
    return reply.code(204).send();
  });
}
