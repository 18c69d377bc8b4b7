import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { openPglite, PGLITE_MEMORY } from '../../server/db/pglite';
import type { Db } from '../../server/db/types';
import { readServicesConfig } from '../../server/services/layout';
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
    app = await buildApp({
      db,
      runtimeDir: path.join(dir, 'runtime'),
      staticDir: path.join(dir, 'dist'),
      settings: { xmppWsUrl: 'ws://xmpp.example:5280/ws', sipWsUrl: 'wss://sip.example:8443/' },
      services: { ...readServicesConfig({}, path.join(dir, 'runtime')), uploadUrl: 'https://upload.example:5443/upload' },
    });
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

  it('every HTML answer carries a CSP built from the settings, and refuses framing', async () => {
    for (const url of ['/', '/index.html', '/history', '/login']) {
      const res = await app.inject({ url });
      const csp = String(res.headers['content-security-policy']);
      const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `))?.split(' ').slice(1);
      expect(directive('frame-ancestors'), url).toEqual(["'none'"]);
      expect(directive('script-src'), url).toEqual(["'self'"]);
      expect(directive('object-src'), url).toEqual(["'none'"]);
      expect(directive('connect-src'), url).toEqual(expect.arrayContaining(["'self'", 'ws://xmpp.example:5280', 'wss://sip.example:8443', 'https://upload.example:5443']));
      expect(directive('media-src'), url).toEqual(expect.arrayContaining(['blob:', 'https://upload.example:5443']));
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
    // JSON answers need none.
    expect((await app.inject({ url: '/health' })).headers['content-security-policy']).toBeUndefined();
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
