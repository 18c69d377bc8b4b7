import { LOGO_MAX_BYTES, LOGO_MIME_TYPES } from '../../wire/branding';

/** Why a chosen file cannot be the logo (before any upload), or null when it may go to the server. */
export function fileProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  if (!(LOGO_MIME_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > LOGO_MAX_BYTES) return 'size';
  return null;
}
