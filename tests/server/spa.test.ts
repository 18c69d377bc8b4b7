import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openPglite, PGLITE_MEMORY } from '../../server/db/pglite';
import type { Db } from '../../server/db/types';
import { isApiPath } from '../../server/spa';

const INDEX = '<!doctype html><title>UC</title><div id="root"></div>';

describe('serving the built client', () => {
  let dir: string;
  let db: Db;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'uc-spa-'));
    await mkdir(path.join(dir, 'dist', 'assets'), { recursive: true });
    await writeFile(path.join(dir, 'dist', 'index.html'), INDEX);
    await writeFile(path.join(dir, 'dist', 'assets', 'app-1a2b3c.js'), 'console.log(1)');
    await writeFile(path.join(dir, 'dist', 'favicon.svg'), '<svg/>');
    // No migrations needed: only /health touches the database here.
    db = await openPglite(PGLITE_MEMORY);
    app = await buildApp({ db, runtimeDir: path.join(dir, 'runtime'), staticDir: path.join(dir, 'dist') });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves index.html at / and for client routes (SPA fallback)', async () => {
    for (const url of ['/', '/history', '/chat/alice@uc.local', '/preferences?panel=audio', '/meetings/42']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves files, hashed assets with a long cache', async () => {
    const asset = await app.inject({ url: '/assets/app-1a2b3c.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await app.inject({ url: '/favicon.svg' })).body).toBe('<svg/>');
  });

  it('a missing asset stays a 404', async () => {
    expect((await app.inject({ url: '/assets/gone-000.js' })).statusCode).toBe(404);
  });

  it('API paths never fall back to the client', async () => {
    for (const [method, url] of [['GET', '/v1/nope'], ['GET', '/v2/nope'], ['POST', '/history']] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: 'not_found' });
    }
    expect((await app.inject({ url: '/health' })).json()).toEqual({ ok: true });
  });

  it('GET /login and /logout are the client pages (their POSTs are the API)', async () => {
    for (const url of ['/login', '/login?redirect=%2Fhistory', '/logout']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    }
  });

  it('does not serve files outside dist', async () => {
    const res = await app.inject({ url: '/../runtime/secrets/jwt.key' });
    expect(res.body).not.toMatch(/^[A-Za-z0-9_-]{40,}\s*$/);
    const encoded = await app.inject({ url: '/%2e%2e/runtime/secrets/jwt.key' });
    expect(encoded.body).not.toMatch(/^[A-Za-z0-9_-]{40,}\s*$/);
  });

  it('isApiPath', () => {
    expect(isApiPath('/v1/users/1')).toBe(true);
    expect(isApiPath('/login?x=1')).toBe(false);
    expect(isApiPath('/health')).toBe(true);
    expect(isApiPath('/history')).toBe(false);
    expect(isApiPath('/v1x')).toBe(false);
  });
});
