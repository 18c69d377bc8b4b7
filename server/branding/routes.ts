import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { imageSize } from 'image-size';
import {
  BrandingTarget,
  LOGO_MAX_BYTES,
  LOGO_MAX_PX,
  LOGO_MIME_TYPES,
  LOGO_MIN_PX,
  LOGO_NOT_AN_IMAGE,
  logoBadSize,
  logoTooLarge,
  logoUrl,
  type BrandingUploadResponse,
} from '../../src/wire/branding';
import { ROLE } from '../../src/wire/roles';
import type { Viewer } from '../auth/viewer';
import type { RouteContext } from '../context';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import { sniffImage } from '../media/sniff';
import { readUpload } from '../media/upload';
import { deleteLogo, logoOf, saveLogo } from './repository';

/** The logoAdmin rule of the configuration: owners and administrators, of their own organisation only. */
function assertLogoAdmin(me: Viewer, organizationId: number): void {
  if (organizationId !== me.organizationId) throw forbidden('You can only change the branding of your own organisation');
  if (me.roleId !== ROLE.ACCOUNT_OWNER && me.roleId !== ROLE.ADMINISTRATOR) throw forbidden('Only account owners and administrators may change the logo');
}

/** The uploaded logo: an image by its first bytes (the declared type alone is not trusted), within the size limits. */
function checkedLogo(bytes: Buffer, declared: string): { mime: string; width: number; height: number } {
  const mime = sniffImage(bytes);
  if (!mime || !(LOGO_MIME_TYPES as readonly string[]).includes(mime) || !(LOGO_MIME_TYPES as readonly string[]).includes(declared)) throw new ApiError(415, 'not_an_image', LOGO_NOT_AN_IMAGE);
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw new ApiError(400, 'bad_image', 'The image could not be read');
  }
  const { width = 0, height = 0 } = size;
  if (width < LOGO_MIN_PX || height < LOGO_MIN_PX || width > LOGO_MAX_PX || height > LOGO_MAX_PX) throw new ApiError(400, 'logo_size', logoBadSize(width, height));
  return { mime, width, height };
}

/** Branding (the catalogue's `POST /setting/branding/upload`, `DELETE` with a query) and the logo for the organisation's members. */
export function registerBrandingRoutes(app: FastifyInstance, { db, requireViewer }: RouteContext): void {
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 4 } });
    scope.post('/setting/branding/upload', async (request: FastifyRequest): Promise<BrandingUploadResponse> => {
      const me = await requireViewer(request);
      if (!request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', 'Send organization_id, type and the image as multipart/form-data (field "file")');
      const upload = await readUpload(request, () => new ApiError(413, 'logo_too_large', logoTooLarge()));
      if (!upload || upload.file.fieldname !== 'file') throw new ApiError(400, 'file_required', 'An image in the field "file" is required');
      // Fields sent before the file arrive with it.
      const field = (name: string) => {
        const f = upload.file.fields[name];
        return f && !Array.isArray(f) && f.type === 'field' ? String(f.value) : undefined;
      };
      const target = parseOrThrow(BrandingTarget, { organization_id: field('organization_id'), type: field('type') }, 'branding upload');
      assertLogoAdmin(me, target.organization_id);
      const logo = checkedLogo(upload.bytes, upload.file.mimetype);
      const digest = await saveLogo(db, target.organization_id, target.type, { ...logo, bytes: upload.bytes });
      return { logo_url: logoUrl(digest), width: logo.width, height: logo.height };
    });
  });

  app.delete('/setting/branding/upload', async (request, reply) => {
    const me = await requireViewer(request);
    const target = parseOrThrow(BrandingTarget, request.query, 'branding delete');
    assertLogoAdmin(me, target.organization_id);
    if (!(await deleteLogo(db, target.organization_id, target.type))) throw notFound('The organisation has no logo');
    return reply.code(204).send();
  });

  // Only the organisation's members see its logo.
  app.get('/v1/branding/logo', async (request, reply) => {
    const me = await requireViewer(request);
    const logo = await logoOf(db, me.organizationId, 'logo');
    if (!logo) throw notFound('The organisation has no logo');
    return reply
      .header('content-type', logo.mime_type)
      .header('cache-control', 'private, max-age=86400')
      .header('content-security-policy', "default-src 'none'")
      .send(Buffer.from(logo.bytes));
  });
}
