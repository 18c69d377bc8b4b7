import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const API_PREFIXES = ['/v1/', '/v2/'];
const API_EXACT = ['/v1', '/v2', '/health'];

/**
 * Paths that only the API answers, whatever the method. /login and /logout are not among them: a
 * POST there is the API, but a GET is the client's login (or logout) page.
 */
export function isApiPath(url: string): boolean {
  const pathname = url.split('?', 1)[0]!;
  return API_EXACT.includes(pathname) || API_PREFIXES.some((p) => pathname.startsWith(p));
}

/**
 * Serves the built client. Hashed build assets are cached for good; index.html never is, so a
 * deploy shows up on the next load.
 */
export async function registerSpa(app: FastifyInstance, staticDir: string): Promise<boolean> {
  if (!existsSync(path.join(staticDir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: staticDir,
    index: ['index.html'],
    setHeaders(reply, filePath) {
      const isHashedAsset = filePath.startsWith(path.join(staticDir, 'assets') + path.sep);
      reply.header('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return true;
}

/**
 * The not-found answer for a non-API GET: the client's index.html, whose router shows the page
 * (or its own 404 view). A missing file under /assets/ stays a 404: HTML in place of a script only
 * hides the real error.
 */
export function spaFallback(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (isApiPath(request.url) || request.url.startsWith('/assets/')) return undefined;
  return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
}
