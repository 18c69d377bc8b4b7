import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactPageWire, ContactWire, indexRowFromTsv, type ContactInput } from '../../src/wire/contacts';
import { generateContacts } from '../../server/seed-contacts';
import { backends, bearer, multipart, PNG, startTestServer, type TestServer } from './helpers';

const blank = (over: Partial<ContactInput> = {}): ContactInput => ({
  first_name: '', last_name: '', company: '', title: '', notes: '', time_zone: null, birthday: null,
  phone_numbers: [], emails: [], addresses: [], instant_messengers: [], ...over,
});

describe.each(backends)('contacts API ($name)', (backend) => {
  let t: TestServer;
  let alice: string;
  let bob: string;
  let rita: string;

  beforeAll(async () => {
    t = await startTestServer(backend);
    [alice, bob, rita] = await Promise.all([t.login('alice'), t.login('bob'), t.login('rita')]);
  });
  afterAll(() => t?.close());

  const list = async (token: string, query: Record<string, string> = {}) => {
    const res = await t.app.inject({ url: '/v1/contacts', query, headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    return ContactPageWire.parse(res.json());
  };
  const create = (token: string, body: unknown) => t.app.inject({ method: 'POST', url: '/v1/contacts', payload: body as object, headers: bearer(token) });

  it('needs a bearer token', async () => {
    expect((await t.app.inject({ url: '/v1/contacts' })).statusCode).toBe(401);
  });

  it('seeds about 300 personal contacts per demo user', async () => {
    const p = await list(alice, { group: 'personal', limit: '1' });
    expect(p.total).toBeGreaterThanOrEqual(280);
    expect(p.total).toBeLessThanOrEqual(320);
  });

  it('defaults to the user group: the organisation’s users, read-only, without the limited-access role', async () => {
    const p = await list(alice, { limit: '500' });
    expect(p.items.every((c) => c.source === 'User' && c.readonly)).toBe(true);
    const names = p.items.map((c) => c.name);
    expect(names).toContain('Bob Martinez');
    expect(names).not.toContain('Dave Kowalski'); // role 4
    expect(names).not.toContain('Rita Sandoval'); // another organisation
    expect(p.items.find((c) => c.name === 'Alice Nguyen')?.is_current_user).toBe(true);
    // A–Z
    const sorted = [...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    expect(names).toEqual(sorted);
  });

  it('pages stably and searches names, e-mail and digits in SQL', async () => {
    const a = await list(alice, { group: 'all', limit: '50', offset: '0' });
    const b = await list(alice, { group: 'all', limit: '50', offset: '50' });
    expect(a.total).toBe(b.total);
    expect(new Set([...a.items, ...b.items].map((c) => c.id)).size).toBe(100);
    const byName = await list(alice, { group: 'all', search: 'martinez' });
    expect(byName.items.some((c) => c.name === 'Bob Martinez')).toBe(true);
    const byExt = await list(alice, { group: 'user', search: '1002' });
    expect(byExt.items.map((c) => c.name)).toEqual(['Bob Martinez']);
    const percent = await list(alice, { group: 'all', search: '%' });
    expect(percent.total).toBe(0);
  });

  it('rejects an unknown group and a malformed id', async () => {
    expect((await t.app.inject({ url: '/v1/contacts?group=nope', headers: bearer(alice) })).statusCode).toBe(400);
    const res = await t.app.inject({ url: '/v1/contacts/x1', headers: bearer(alice) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_contact_id' });
  });

  describe('validation mirrors the form', () => {
    const problems = async (body: ContactInput) => {
      const res = await create(alice, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('validation_failed');
      return (res.json().details as Array<{ path: string; message: string }>).map((d) => `${d.path}:${d.message}`);
    };
    it('needs one identifying field', async () => {
      expect(await problems(blank())).toEqual(['(root):identity_required']);
    });
    it('checks phone and e-mail patterns, 911 and 933 pass', async () => {
      const phone = (number: string) => ({ number, extension: null, type: 'work' as const, custom_type: null, source: 'personal' as const, source_id: null, is_default: false, is_primary: false, caller_id: false });
      expect(await problems(blank({ first_name: 'X', phone_numbers: [phone('12')] }))).toEqual(['phone_numbers.0.number:phone_invalid']);
      expect((await create(alice, blank({ first_name: 'Emergency', phone_numbers: [phone('911'), phone('933'), phone('(415) 555-0142')] }))).statusCode).toBe(201);
      expect(await problems(blank({ first_name: 'X', emails: [{ id: null, email: 'not-an-email', type: 'work', custom_type: null, is_default: true, source: 'personal' }] }))).toEqual(['emails.0.email:email_invalid']);
    });
    it('instant messengers need name and type; a birthday needs a real date; state only for the USA', async () => {
      expect(await problems(blank({ first_name: 'X', instant_messengers: [{ id: null, type: 'skype', name: '' }] }))).toEqual(['instant_messengers.0.name:im_incomplete']);
      expect(await problems(blank({ first_name: 'X', birthday: { day: 31, month: 2, year: 1990 } }))).toEqual(['birthday:birthday_invalid']);
      const addr = { address_id: null, type: 'work', street_1: '1 Rue', street_2: '', apt_number: '', city: 'Paris', state: 'CA', zip_code: '', zip_plus_four: '', country: 'FRA', county: '', source: 'personal' as const };
      expect(await problems(blank({ addresses: [addr] }))).toEqual(['addresses.0.state:state_not_allowed']);
    });
    it('rejects a malformed body with the shape error', async () => {
      const res = await create(alice, { first_name: 3 });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', message: 'Invalid contact' });
    });
  });

  it('names a nameless contact by its formatted primary phone; formats every number on read', async () => {
    const phone = { number: '4155550142', extension: null, type: 'mobile' as const, custom_type: null, source: 'personal' as const, source_id: null, is_default: true, is_primary: true, caller_id: false, formatted_phone_number: 'ignored' };
    const res = await create(alice, blank({ phone_numbers: [phone, { ...phone, number: '+442079460958', is_primary: false }] }));
    expect(res.statusCode, res.body).toBe(201);
    const c = ContactWire.parse(res.json());
    expect(c.name).toBe('(415) 555-0142');
    expect(c.phone_numbers.map((p) => p.formatted_phone_number)).toEqual(['(415) 555-0142', '+44 20 7946 0958']);
    expect(c).toMatchObject({ status: null, state: null, is_dummy_contact: false, messaging_did: null, messaging_did_label: null, in_meeting: false });
    const found = await list(alice, { group: 'personal', search: '555 0142' });
    expect(found.items.map((x) => x.id)).toContain(c.id);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${c.id}`, headers: bearer(alice) })).statusCode).toBe(204);
  });

  it('has the indexes the list and the search use', async () => {
    const { rows } = await t.db.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE tablename = 'contacts' ORDER BY indexname`);
    expect(rows.map((r) => r.indexname)).toEqual(expect.arrayContaining(['contacts_owner_favorite_idx', 'contacts_owner_search_trgm', 'contacts_owner_sort_idx']));
  });

  describe('ownership', () => {
    let id: string;
    beforeAll(async () => {
      const res = await create(alice, blank({ first_name: 'Zed', last_name: 'Quux', emails: [{ id: -1, email: 'zed@quux.example', type: 'work', custom_type: null, is_default: true, source: 'personal' }] }));
      expect(res.statusCode, res.body).toBe(201);
      const c = ContactWire.parse(res.json());
      expect(c).toMatchObject({ name: 'Zed Quux', source: 'personal', readonly: false });
      expect(c.emails[0]!.id).toBeGreaterThan(0);
      id = c.id;
    });

    it('the owner edits, another user cannot see, edit or delete it', async () => {
      const res = await t.app.inject({ method: 'PUT', url: `/v1/contacts/${id}`, payload: blank({ company: 'Quux Ltd' }), headers: bearer(alice) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().name).toBe('Quux Ltd');
      expect((await t.app.inject({ url: `/v1/contacts/${id}`, headers: bearer(bob) })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'PUT', url: `/v1/contacts/${id}`, payload: blank({ company: 'Hijack' }), headers: bearer(bob) })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${id}`, headers: bearer(bob) })).statusCode).toBe(404);
    });

    it('company contacts are read-only; other organisations are invisible', async () => {
      const bobId = await t.userId('bob');
      expect((await t.app.inject({ method: 'PUT', url: `/v1/contacts/u${bobId}`, payload: blank({ first_name: 'B' }), headers: bearer(alice) })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'DELETE', url: `/v1/contacts/u${bobId}`, headers: bearer(alice) })).statusCode).toBe(403);
      expect((await t.app.inject({ url: `/v1/contacts/u${bobId}`, headers: bearer(rita) })).statusCode).toBe(404);
      const daveId = await t.userId('dave');
      expect((await t.app.inject({ url: `/v1/contacts/u${daveId}`, headers: bearer(alice) })).statusCode).toBe(404);
    });

    it('favourites: personal and company contacts, per user', async () => {
      const bobId = await t.userId('bob');
      const fav = await t.app.inject({ method: 'PUT', url: `/v1/contacts/u${bobId}/favorite`, payload: { favorite: true }, headers: bearer(alice) });
      expect(fav.statusCode, fav.body).toBe(200);
      expect(fav.json().favorite).toBe(true);
      await t.app.inject({ method: 'PUT', url: `/v1/contacts/${id}/favorite`, payload: { favorite: true }, headers: bearer(alice) });
      const favs = await list(alice, { group: 'favorites', limit: '500' });
      expect(favs.items.map((c) => c.id)).toEqual(expect.arrayContaining([`u${bobId}`, id]));
      // Carol's view of Bob is not starred.
      const carol = await t.login('carol');
      expect((await t.app.inject({ url: `/v1/contacts/u${bobId}`, headers: bearer(carol) })).json().favorite).toBe(false);
      expect((await t.app.inject({ method: 'PUT', url: `/v1/contacts/${id}/favorite`, payload: { favorite: 'yes' }, headers: bearer(alice) })).statusCode).toBe(400);
    });

    it('avatars: images only, size-limited, refused for company contacts, served only within the organisation', async () => {
      const up = (cid: string, who: string, part: ReturnType<typeof multipart>) =>
        t.app.inject({ method: 'POST', url: `/v1/contacts/${cid}/avatar`, payload: part.payload, headers: { ...bearer(who), ...part.headers } });
      const ok = await up(id, alice, multipart('photo', 'a.png', 'image/png', PNG));
      expect(ok.statusCode, ok.body).toBe(200);
      const href = ok.json().avatar_href as string;
      const img = await t.app.inject({ url: href, headers: bearer(alice) });
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/png');
      expect(img.rawPayload.equals(PNG)).toBe(true);
      expect((await t.app.inject({ url: href, headers: bearer(rita) })).statusCode).toBe(404);
      expect((await t.app.inject({ url: `/v1/contacts/${id}`, headers: bearer(alice) })).json().avatar_href).toBe(href);

      const text = await up(id, alice, multipart('photo', 'a.png', 'image/png', Buffer.from('hello, not an image')));
      expect(text.statusCode).toBe(415);
      const big = await up(id, alice, multipart('photo', 'a.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 + 10)])));
      expect(big.statusCode).toBe(413);
      const bobId = await t.userId('bob');
      const company = await up(`u${bobId}`, alice, multipart('photo', 'a.png', 'image/png', PNG));
      expect(company.statusCode).toBe(403);
      expect(company.json().message).toMatch(/refused for company contacts/);
      expect((await up(id, bob, multipart('photo', 'a.png', 'image/png', PNG))).statusCode).toBe(404);

      expect((await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${id}/avatar`, headers: bearer(alice) })).statusCode).toBe(204);
      expect((await t.app.inject({ url: href, headers: bearer(alice) })).statusCode).toBe(404);
    });

    it('the compact index lists every contact with its numbers', async () => {
      const res = await t.app.inject({ url: '/v1/contacts/index', headers: bearer(alice) });
      const items = res.json().items as Array<[string, string, string, string, string, number, string]>;
      expect(items.find((r) => r[0] === id)).toEqual([id, 'Quux Ltd', '', '', 'Quux Ltd', 1, 'personal']);
      expect(items.find((r) => r[1] === 'Bob Martinez')?.[2]).toBe('1002');
      const tsv = await t.app.inject({ url: '/v1/contacts/index?format=tsv', headers: bearer(alice) });
      expect(tsv.headers['content-type']).toMatch(/^text\/tab-separated-values/);
      const lines = tsv.body.split('\n');
      expect(lines).toHaveLength(items.length);
      expect(lines.map(indexRowFromTsv)).toEqual(items.map((r) => r.map((v) => (typeof v === 'string' ? v.replace(/[\t\r\n]+/g, ' ') : v))));
      expect((await t.app.inject({ url: '/v1/contacts/index?format=xml', headers: bearer(alice) })).statusCode).toBe(400);
    });

    it('the owner deletes it', async () => {
      expect((await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${id}`, headers: bearer(alice) })).statusCode).toBe(204);
      expect((await t.app.inject({ url: `/v1/contacts/${id}`, headers: bearer(alice) })).statusCode).toBe(404);
    });
  });

  it('pages and searches 50,000 contacts quickly', async () => {
    const carolId = await t.userId('carol');
    const carol = await t.login('carol');
    await generateContacts(t.db, carolId, 50_000);
    const t0 = performance.now();
    const first = await list(carol, { group: 'all', limit: '100' });
    const openMs = performance.now() - t0;
    expect(first.total).toBeGreaterThan(50_000);
    const t1 = performance.now();
    const found = await list(carol, { group: 'all', search: 'smith', limit: '100' });
    const searchMs = performance.now() - t1;
    expect(found.total).toBeGreaterThan(0);
    expect(found.items.every((c) => `${c.name} ${c.emails.map((e) => e.email).join(' ')}`.toLowerCase().includes('smith'))).toBe(true);
    const deep = await list(carol, { group: 'personal', offset: '49000', limit: '100' });
    expect(deep.items.length).toBe(100);
    console.log(`[${backend.name}] 50k contacts: first page ${openMs.toFixed(0)} ms, search ${searchMs.toFixed(0)} ms`);
  }, 120_000);
});
