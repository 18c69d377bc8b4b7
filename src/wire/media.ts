/*
 * What a message may carry as media, for chat and texts alike, on the client and the servers: the
 * allowed file types (by extension) and the 3670016-byte total per message. No dependencies, so
 * the chat screens and ejabberd's configuration can use it without the texts' phone-number library.
 */

/** Every attachment of one message together, in bytes (also ejabberd's upload limit for chat). */
export const ATTACHMENT_MAX_TOTAL_BYTES = 3_670_016;

/** The only attachments allowed, by extension (case-insensitive); any other file is refused. */
export const FILE_TYPES = {
  images: ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp'],
  videos: ['mp4', '3gp', 'mov', 'm4v', 'webm'],
  files: ['pdf', 'txt', 'vcf', 'csv', 'rtf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'zip'],
} as const;

export type MediaKind = 'image' | 'video' | 'file';

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** image/video/file by extension, or null when the extension is not allowed at all. */
export function mediaKindOf(fileName: string): MediaKind | null {
  const ext = extensionOf(fileName);
  if ((FILE_TYPES.images as readonly string[]).includes(ext)) return 'image';
  if ((FILE_TYPES.videos as readonly string[]).includes(ext)) return 'video';
  if ((FILE_TYPES.files as readonly string[]).includes(ext)) return 'file';
  return null;
}

/** Every allowed extension with its dot, for a file picker's `accept`. */
export const ACCEPTED_EXTENSIONS: readonly string[] = [...FILE_TYPES.images, ...FILE_TYPES.videos, ...FILE_TYPES.files].map((e) => `.${e}`);
