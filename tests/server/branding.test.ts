import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../src/wire/common';
import { UccConfig } from '../../src/wire/config';
import { BrandingUploadResponse, LOGO_MAX_BYTES, LOGO_NOT_AN_IMAGE, logoBadSize, logoTooLarge } from '../../src/wire/branding';
import { pngOf } from '../png';
import { backends, bearer, PNG, startTestServer, type TestServer } from './helpers';

/** The form a browser's FormData sends: the fields first, then the file. */
function form(fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer }) {
  const boundary = '----ucbrand' + Math.random().toString(16).slice(2);
  const parts = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`);
  return { payload: Buffer.concat([...parts, head, file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(backends)('branding: the organisation logo ($name)', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  let acme = 0;
  let northwind = 0;
  beforeAll(async () => {
    t = await startTestServer(backend);
    for (const u of ['olivia', 'alice', 'rita']) token[u] = await t.login(u);
    const org = async (u: string) => (await t.db.query<{ organization_id: number }>('SELECT organization_id FROM users WHERE username = $1', [u])).rows[0]!.organization_id;
    [acme, northwind] = [await org('olivia'), await org('rita')];
  });
  afterAll(() => t?.close());

  const upload = (user: string, fields: Record<string, string>, file = { name: 'logo.png', type: 'image/png', bytes: pngOf(120, 40) }) => {
    const f = form(fields, file);
    return t.app.inject({ method: 'POST', url: '/setting/branding/upload', payload: f.payload, headers: { ...bearer(token[user]!), ...f.headers } });
  };
  const config = async (user: string) => UccConfig.parse((await t.app.inject({ method: 'GET', url: '/v1/ucc-config', headers: bearer(token[user]!) })).json());
  const logo = (user: string) => t.app.inject({ method: 'GET', url: '/v1/branding/logo', headers: bearer(token[user]!) });

  it("the owner uploads a logo; every member's configuration names it and they get the image; another organisation does not", async () => {
    const bytes = pngOf(120, 40);
    const res = await upload('olivia', { organization_id: String(acme), type: 'logo' }, { name: 'acme.png', type: 'image/png', bytes });
    expect(res.statusCode, res.body).toBe(200);
    const saved = BrandingUploadResponse.parse(res.json());
    expect(saved).toMatchObject({ width: 120, height: 40 });
    expect((await config('alice')).branding.logo_url).toBe(saved.logo_url);
    const got = await logo('alice');
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(Buffer.from(got.rawPayload).equals(bytes)).toBe(true);
    // Northwind has none, and never sees Acme's.
    expect((await config('rita')).branding.logo_url).toBeNull();
    expect((await logo('rita')).statusCode).toBe(404);
  });

  it('a new upload is a new address (no cache shows the old logo); delete removes it for everyone', async () => {
    const first = BrandingUploadResponse.parse((await upload('olivia', { organization_id: String(acme), type: 'logo' })).json());
    const second = BrandingUploadResponse.parse((await upload('olivia', { organization_id: String(acme), type: 'logo' }, { name: 'b.png', type: 'image/png', bytes: pngOf(64, 64) })).json());
    expect(second.logo_url).not.toBe(first.logo_url);
    const del = await t.app.inject({ method: 'DELETE', url: `/setting/branding/upload?organization_id=${acme}&type=logo`, headers: bearer(token.olivia!) });
    expect(del.statusCode).toBe(204);
    expect((await config('alice')).branding.logo_url).toBeNull();
    expect((await logo('alice')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/setting/branding/upload?organization_id=${acme}&type=logo`, headers: bearer(token.olivia!) })).statusCode).toBe(404);
  });

  it('only logo admins of their own organisation: a standard user and another organisation\'s administrator are refused', async () => {
    const standard = await upload('alice', { organization_id: String(acme), type: 'logo' });
    expect(standard.statusCode).toBe(403);
    expect(ApiErrorBody.parse(standard.json()).message).toMatch(/owners and administrators/);
    expect((await upload('rita', { organization_id: String(acme), type: 'logo' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/setting/branding/upload?organization_id=${acme}&type=logo`, headers: bearer(token.rita!) })).statusCode).toBe(403);
    // Rita manages her own organisation's.
    expect((await upload('rita', { organization_id: String(northwind), type: 'logo' })).statusCode).toBe(200);
  });

  it('images only, within the size and dimension limits; bad fields get a 4xx with a message', async () => {
    const target = { organization_id: String(acme), type: 'logo' };
    const html = await upload('olivia', target, { name: 'x.png', type: 'image/png', bytes: Buffer.from('<html><script>alert(1)</script></html>') });
    expect(html.statusCode).toBe(415);
    expect(ApiErrorBody.parse(html.json()).message).toBe(LOGO_NOT_AN_IMAGE);
    const svg = await upload('olivia', target, { name: 'x.svg', type: 'image/svg+xml', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    expect(svg.statusCode).toBe(415);
    const tiny = await upload('olivia', target, { name: 't.png', type: 'image/png', bytes: PNG });
    expect(tiny.statusCode).toBe(400);
    expect(ApiErrorBody.parse(tiny.json()).message).toBe(logoBadSize(1, 1));
    const wide = await upload('olivia', target, { name: 'w.png', type: 'image/png', bytes: pngOf(3000, 20) });
    expect(ApiErrorBody.parse(wide.json()).message).toBe(logoBadSize(3000, 20));
    const big = await upload('olivia', target, { name: 'big.png', type: 'image/png', bytes: Buffer.concat([pngOf(100, 100), Buffer.alloc(LOGO_MAX_BYTES)]) });
    expect(big.statusCode).toBe(413);
    expect(ApiErrorBody.parse(big.json()).message).toBe(logoTooLarge());
    for (const fields of [{ organization_id: 'abc', type: 'logo' }, { organization_id: String(acme), type: 'banner' }, { organization_id: '99999999999', type: 'logo' }, { type: 'logo' }, { organization_id: `${acme}\u0000`, type: 'logo' }]) {
      const res = await upload('olivia', fields as Record<string, string>);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(ApiErrorBody.parse(res.json()).message.length).toBeGreaterThan(0);
    }
    expect((await t.app.inject({ method: 'DELETE', url: '/setting/branding/upload?organization_id=-1&type=logo', headers: bearer(token.olivia!) })).statusCode).toBe(400);
  });
});
