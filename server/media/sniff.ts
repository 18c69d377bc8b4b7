/**
 * A file's type from its first bytes. A name or a declared content type proves nothing: an HTML
 * page named photo.png must never be served as an image (or sniffed into a page by a browser).
 */
const ascii = (b: Buffer, start: number, end: number) => (b.length >= end ? b.subarray(start, end).toString('latin1') : '');

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/bmp';

export function sniffImage(b: Buffer): ImageType | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(b, 0, 2) === 'BM' && b.length >= 26) return 'image/bmp';
  return null;
}

/** The ISO base media formats (mp4, 3gp, mov, m4v) by their `ftyp` brand; WebM by its EBML header. */
export function sniffVideo(b: Buffer): string | null {
  if (b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3) return 'video/webm';
  if (ascii(b, 4, 8) !== 'ftyp') return null;
  const brand = ascii(b, 8, 12);
  if (brand === 'qt  ') return 'video/quicktime';
  if (brand.startsWith('3g')) return 'video/3gpp';
  if (brand === 'M4V ' || brand === 'M4VH' || brand === 'M4VP') return 'video/x-m4v';
  return 'video/mp4';
}

/** What to serve a picture or video as: its sniffed type, or null when the content is not what its kind says. */
export function sniffMedia(kind: 'image' | 'video', b: Buffer): string | null {
  return kind === 'image' ? sniffImage(b) : sniffVideo(b);
}
