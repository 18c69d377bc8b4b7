import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type ByteRange = { start: number; end: number };

/**
 * One `Range: bytes=…` range (RFC 9110 §14.1.2): `a-b`, `a-` or the suffix `-n`. Returns null when
 * the header is absent, malformed or asks for several ranges (the whole file is then sent, as the RFC
 * allows), and 'unsatisfiable' when the range lies outside the file.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null;
  const [, a, b] = m as unknown as [string, string, string];
  if (a === '' && b === '') return null;
  if (a === '') {
    const n = Number(b);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  if (start >= size) return 'unsatisfiable';
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (end < start) return null;
  return { start, end };
}

export interface MediaFile {
  bytes: Buffer;
  contentType: string;
  /** Given: sent as an attachment with this name (a download); otherwise inline (a player). */
  downloadName?: string;
}

/** A private audio file with byte ranges, so an audio element can seek without fetching it all. */
export function sendMedia(request: FastifyRequest, reply: FastifyReply, file: MediaFile): FastifyReply {
  const size = file.bytes.length;
  const etag = `"${createHash('sha1').update(file.bytes).digest('base64url')}"`;
  reply.header('accept-ranges', 'bytes');
  reply.header('cache-control', 'private, no-cache');
  reply.header('etag', etag);
  if (file.downloadName) {
    const ascii = file.downloadName.replace(/[^\x20-\x7e]|["\\]/g, '_');
    reply.header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.downloadName)}`);
  } else reply.header('content-disposition', 'inline');
  // If-Range: a range applies only while the file is the one the client has part of.
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    return reply.code(416).type('application/json').send({ error: 'range_not_satisfiable', message: `The file has ${size} bytes` });
  }
  reply.header('content-type', file.contentType);
  if (range) {
    reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
    return reply.code(206).send(file.bytes.subarray(range.start, range.end + 1));
  }
  return reply.code(200).send(file.bytes);
}
