import * as z from 'zod/mini';
import { IdParam } from './common';

/** The kinds of branding image an organisation may upload (the call's `type`): the frame's logo. */
export const BRANDING_TYPES = ['logo'] as const;
export type BrandingType = (typeof BRANDING_TYPES)[number];

/** A logo is a small picture in the top bar: these bound what the server keeps. */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_MIN_PX = 16;
export const LOGO_MAX_PX = 2048;
export const LOGO_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Messages the client shows as they are (and maps to its own strings by code). */
export const LOGO_NOT_AN_IMAGE = 'Only PNG, JPEG, GIF or WebP images are accepted';
export const logoTooLarge = () => `The image is larger than ${LOGO_MAX_BYTES / 1024} KB`;
export const logoBadSize = (w: number, h: number) => `The image is ${w}×${h} pixels; a logo must be between ${LOGO_MIN_PX} and ${LOGO_MAX_PX} pixels on each side`;

/** `POST /setting/branding/upload`'s form fields besides the file; `DELETE` takes the same as its query. */
export const BrandingTarget = z.object({
  organization_id: IdParam.shape.id,
  type: z.enum(BRANDING_TYPES, 'type must be "logo"'),
});
export type BrandingTarget = z.infer<typeof BrandingTarget>;

export const BrandingUploadResponse = z.object({ logo_url: z.string(), width: z.int(), height: z.int() });
export type BrandingUploadResponse = z.infer<typeof BrandingUploadResponse>;

/** The logo's address for the configuration: another picture is another URL (its digest), so no cache shows the old one. */
export const logoUrl = (digest: string): string => `/v1/branding/logo?v=${digest}`;
