import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { IdParam } from '../../src/wire/common';
import {
  AVATAR_MAX_BYTES,
  AVATAR_MIME_TYPES,
  ContactInput,
  ContactListQuery,
  contactProblems,
  FavoriteBody,
  indexRowToTsv,
  type ContactIntegrationsWire,
  type ContactIndexWire,
  type ContactPageWire,
  type ContactWire,
} from '../../src/wire/contacts';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import {
  avatarHref,
  contactIndex,
  createContact,
  deleteContact,
  getContact,
  listContacts,
  parseContactId,
  setFavorite,
  updateContact,
  type ContactRef,
  type IntegrationFlags,
  type Viewer,
} from './repository';
import { avatarOf, deleteContactAvatar, deleteUserAvatar, saveContactAvatar, saveUserAvatar } from './avatars';
import { sniffImage } from '../media/sniff';
import { readUpload } from '../media/upload';
import type { RouteContext } from '../context';

/** No identity integration (Google, Microsoft) is connected in this deployment. */
const INTEGRATIONS: ContactIntegrationsWire = {
  google: { connected: false, enabled: false },
  microsoft: { connected: false, enabled: false },
};
const activeIntegrations = (): IntegrationFlags => ({
  google: INTEGRATIONS.google.connected && INTEGRATIONS.google.enabled,
  microsoft: INTEGRATIONS.microsoft.connected && INTEGRATIONS.microsoft.enabled,
});

const ContactIdParam = z.object({ id: z.string() });
const invalidContactId = () => new ApiError(400, 'invalid_contact_id', 'Contact ids look like p123 (personal) or u45 (company)');
const IndexQuery = z.object({ format: z.optional(z.enum(['json', 'tsv'])) });

/** Server-side twin of the form's rules: 400 with one detail per problem (the codes the form translates). */
export function validateContactBody(body: unknown): ContactInput {
  const input = parseOrThrow(ContactInput, body, 'contact');
  const problems = contactProblems(input);
  if (problems.length) {
    throw new ApiError(400, 'validation_failed', 'Invalid contact', problems.map((p) => ({ path: p.path, message: p.code })));
  }
  return input;
}

export function registerContactRoutes(app: FastifyInstance, { db, requireUserId, requireViewer }: RouteContext): void {
  const viewerOf = requireViewer;
  const refOf = (request: FastifyRequest): ContactRef => {
    const ref = parseContactId(parseOrThrow(ContactIdParam, request.params, 'contact id', invalidContactId).id);
    if (!ref) throw invalidContactId();
    return ref;
  };
  /** A personal contact of the caller, or why not: company contacts are read-only, others' do not exist for the caller. */
  const personalRef = (ref: ContactRef, what: string): number => {
    if (ref.kind === 'u') throw forbidden(`Company contacts are read-only: cannot ${what}`);
    return ref.id;
  };
  const found = async (viewer: Viewer, ref: ContactRef): Promise<ContactWire> => {
    const c = await getContact(db, viewer, ref);
    if (!c) throw notFound('No such contact');
    return c;
  };

  app.get('/v1/contact-integrations', async (request): Promise<ContactIntegrationsWire> => {
    await requireUserId(request);
    return INTEGRATIONS;
  });

  app.get('/v1/contacts', async (request): Promise<ContactPageWire> => {
    const viewer = await viewerOf(request);
    const q = parseOrThrow(ContactListQuery, request.query, 'contacts query');
    return listContacts(db, viewer, { ...q, integrations: activeIntegrations() });
  });

  app.get('/v1/contacts/index', async (request, reply): Promise<ContactIndexWire | string> => {
    const viewer = await viewerOf(request);
    const { format } = parseOrThrow(IndexQuery, request.query, 'contacts index query', () => new ApiError(400, 'invalid_format', 'format is json or tsv'));
    const items = await contactIndex(db, viewer, activeIntegrations());
    if (format === 'tsv') return reply.type('text/tab-separated-values; charset=utf-8').send(items.map(indexRowToTsv).join('\n'));
    return { items };
  });

  app.get('/v1/contacts/:id', async (request): Promise<ContactWire> => found(await viewerOf(request), refOf(request)));

  app.post('/v1/contacts', async (request, reply): Promise<ContactWire> => {
    const viewer = await viewerOf(request);
    const input = validateContactBody(request.body);
    const id = await createContact(db, viewer, input);
    reply.code(201);
    return found(viewer, { kind: 'p', id });
  });

  app.put('/v1/contacts/:id', async (request): Promise<ContactWire> => {
    const viewer = await viewerOf(request);
    const ref = refOf(request);
    const id = personalRef(ref, 'edit');
    const input = validateContactBody(request.body);
    if (!(await updateContact(db, viewer, id, input))) throw notFound('No such contact');
    return found(viewer, ref);
  });

  app.delete('/v1/contacts/:id', async (request, reply) => {
    const viewer = await viewerOf(request);
    const id = personalRef(refOf(request), 'delete');
    if (!(await deleteContact(db, viewer, id))) throw notFound('No such contact');
    return reply.code(204).send();
  });

  app.put('/v1/contacts/:id/favorite', async (request): Promise<ContactWire> => {
    const viewer = await viewerOf(request);
    const ref = refOf(request);
    const { favorite } = parseOrThrow(FavoriteBody, request.body, 'favourite');
    if (!(await setFavorite(db, viewer, ref, favorite))) throw notFound('No such contact');
    return found(viewer, ref);
  });

  // Avatars: multipart only in this scope, field `photo`, images only, size-limited.
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4 } });

    scope.post('/v1/contacts/:id/avatar', async (request) => {
      const viewer = await viewerOf(request);
      const ref = refOf(request);
      // Company (User) contacts never take an avatar upload, whatever their readonly flag says.
      if (ref.kind === 'u') throw forbidden('Avatar upload is refused for company contacts');
      const contact = await found(viewer, ref);
      if (contact.readonly) throw forbidden('This contact is read-only');
      const photo = await readPhoto(request);
      const id = await saveContactAvatar(db, viewer.organizationId, ref.id, photo);
      return { avatar_id: id, avatar_href: avatarHref(id) };
    });

    // The profile's photo (the catalogue's `POST /v1/users/{id}/avatar`): one's own only.
    scope.post('/v1/users/:id/avatar', async (request) => {
      const viewer = await viewerOf(request);
      if (ownUserId(request, viewer) === null) throw forbidden('You can only change your own photo');
      const photo = await readPhoto(request);
      const id = await saveUserAvatar(db, viewer.organizationId, viewer.userId, photo);
      return { avatar_id: id, avatar_href: avatarHref(id) };
    });
  });

  app.delete('/v1/users/:id/avatar', async (request, reply) => {
    const viewer = await viewerOf(request);
    if (ownUserId(request, viewer) === null) throw forbidden('You can only remove your own photo');
    await deleteUserAvatar(db, viewer.userId);
    return reply.code(204).send();
  });

  app.delete('/v1/contacts/:id/avatar', async (request, reply) => {
    const viewer = await viewerOf(request);
    const ref = refOf(request);
    if (ref.kind === 'u') throw forbidden('Company contacts are read-only');
    const contact = await found(viewer, ref);
    if (contact.readonly) throw forbidden('This contact is read-only');
    await deleteContactAvatar(db, ref.id);
    return reply.code(204).send();
  });

  // Served only to the organisation the avatar belongs to; another organisation sees a 404.
  app.get('/v1/avatars/:id', async (request, reply) => {
    const viewer = await viewerOf(request);
    const { id } = parseOrThrow(IdParam, request.params, 'avatar id', () => new ApiError(400, 'invalid_avatar_id', 'Invalid avatar id'));
    const row = await avatarOf(db, viewer.organizationId, id);
    // A personal contact's picture is its owner's; a user's picture is the organisation's.
    if (!row || (row.contact_owner !== null && row.contact_owner !== viewer.userId)) throw notFound('No such avatar');
    return reply
      .header('content-type', row.mime_type)
      .header('cache-control', 'private, max-age=3600')
      .header('content-security-policy', "default-src 'none'")
      .send(Buffer.from(row.bytes));
  });
}

/** The `:id` of a `/v1/users/:id/...` URL when it is the caller, else null. */
function ownUserId(request: FastifyRequest, viewer: { userId: number }): number | null {
  const parsed = IdParam.safeParse(request.params);
  return parsed.success && parsed.data.id === viewer.userId ? parsed.data.id : null;
}

/**
 * The uploaded picture: multipart field `photo`, at most AVATAR_MAX_BYTES, and an image by its
 * first bytes as well as its declared type (the declared type alone is not trusted).
 */
async function readPhoto(request: FastifyRequest): Promise<{ bytes: Buffer; mime: string }> {
  if (!request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', 'Send the image as multipart/form-data in the field "photo"');
  const upload = await readUpload(request, () => new ApiError(413, 'avatar_too_large', `The image is larger than ${AVATAR_MAX_BYTES} bytes`));
  if (!upload || upload.file.fieldname !== 'photo') throw new ApiError(400, 'photo_required', 'A file in the field "photo" is required');
  const { file, bytes } = upload;
  const sniffed = sniffImage(bytes);
  if (!sniffed || !(AVATAR_MIME_TYPES as readonly string[]).includes(sniffed) || !(AVATAR_MIME_TYPES as readonly string[]).includes(file.mimetype)) {
    throw new ApiError(415, 'not_an_image', 'Only PNG, JPEG, GIF or WebP images are accepted');
  }
  return { bytes, mime: sniffed };
}
