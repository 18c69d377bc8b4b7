/** Media messages in chat: what a file may be, and how it is described on the wire (no connection needed). */
import { ATTACHMENT_MAX_TOTAL_BYTES, extensionOf, mediaKindOf, type MediaKind } from '../../../wire/media';

/** A file a chat message carries: where it is, its kind, extension, original name and size. */
export interface ChatMedia {
  /** Where anyone in the conversation fetches it (ejabberd's upload service). */
  url: string;
  type: MediaKind;
  /** Lower-case, without the dot. */
  ext: string;
  /** The file's original name, as the sender chose it. */
  ogName: string;
  /** Size in bytes, when the sender said. */
  bytes: number | null;
}

export type ChatFileProblem = 'extension' | 'tooLarge' | 'empty';

/** Files that may be sent: an allowed extension (case-insensitive), not empty, at most the attachment limit. */
export function chatFileProblem(file: { name: string; size: number }): ChatFileProblem | null {
  if (mediaKindOf(file.name) === null) return 'extension';
  if (file.size === 0) return 'empty';
  if (file.size > ATTACHMENT_MAX_TOTAL_BYTES) return 'tooLarge';
  return null;
}

/**
 * Several files in one go count together against the limit, as for texts: the first problem, or null.
 * (Each is still sent as its own message.)
 */
export function chatFilesProblem(files: ReadonlyArray<{ name: string; size: number }>): ChatFileProblem | null {
  for (const f of files) {
    const p = chatFileProblem(f);
    if (p) return p;
  }
  return files.reduce((n, f) => n + f.size, 0) > ATTACHMENT_MAX_TOTAL_BYTES ? 'tooLarge' : null;
}

/** The description of a file about to be sent, once it has a URL. */
export function describeFile(file: { name: string; size: number }, url: string): ChatMedia {
  return { url, type: mediaKindOf(file.name) ?? 'file', ext: extensionOf(file.name), ogName: file.name, bytes: file.size };
}

/** Only web addresses are followed: a link from a peer must never be `javascript:` or `data:`. */
export function isWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The last path segment of a URL, decoded: a name for media that came without one. */
export function nameFromUrl(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '';
    return decodeURIComponent(last) || url;
  } catch {
    return url;
  }
}

/** 1.5 MB, 320 kB, 12 bytes: in the user's language. */
export function formatBytes(bytes: number, lang: string): string {
  const units = [
    ['megabyte', 1024 * 1024],
    ['kilobyte', 1024],
  ] as const;
  for (const [unit, size] of units) {
    if (bytes >= size) return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(bytes / size);
  }
  return new Intl.NumberFormat(lang, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(bytes);
}
