import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactWire, indexRowFromTsv, UserAddressListWire, UserAddressWire, UserEmailListWire, UserPhoneListWire } from '../../src/wire/contacts';
import { Profile } from '../../src/wire/profile';
import { backends, bearer, multipart, PNG, startTestServer, type TestServer } from './helpers';

describe.each(backends)('profile API: /v1/users/{id} ($name)', (backend) => {
  let t: TestServer;
  /** Tokens: alice and bob are standard users, olivia the account owner, mateo an administrator (all Acme); rita administers Northwind. */
  let alice: string;
  let bob: string;
  let olivia: string;
  let mateo: string;
  let rita: string;
  let aliceId: number;
  let bobId: number;
  let carolId: number;
  let ritaId: number;

  beforeAll(async () => {
    t = await startTestServer(backend);
    [alice, bob, olivia, mateo, rita] = await Promise.all([t.login('alice'), t.login('bob'), t.login('olivia'), t.login('mateo.garcia'), t.login('rita')]);
    [aliceId, bobId, carolId, ritaId] = await Promise.all([t.userId('alice'), t.userId('bob'), t.userId('carol'), t.userId('rita')]);
  });
  afterAll(() => t?.close());

  const patch = (token: string, id: number, body: unknown) => t.app.inject({ method: 'PATCH', url: `/v1/users/${id}`, payload: body as object, headers: bearer(token) });
  const put = (token: string, url: string, body: unknown) => t.app.inject({ method: 'PUT', url, payload: body as object, headers: bearer(token) });
  const get = (token: string, url: string) => t.app.inject({ url, headers: bearer(token) });
  const contact = async (token: string, id: number) => {
    const res = await get(token, `/v1/contacts/u${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return ContactWire.parse(res.json());
  };
  const indexRow = async (token: string, id: number) => {
    const res = await get(token, '/v1/contacts/index?format=tsv');
    expect(res.statusCode).toBe(200);
    return res.body.split('\n').map(indexRowFromTsv).find((r) => r[0] === `u${id}`);
  };

  it('needs a bearer token', async () => {
    expect((await t.app.inject({ method: 'PATCH', url: `/v1/users/${aliceId}`, payload: { last_name: 'X' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: `/v1/users/${aliceId}/phone-numbers`, payload: { items: [] } })).statusCode).toBe(401);
  });

  it('a user updates their own profile; the company contact and the directory show it', async () => {
    const res = await patch(alice, aliceId, { first_name: ' Alicia ', last_name: 'Nguyen-Park', company: 'Acme Research', alias: 'Ali' });
    expect(res.statusCode, res.body).toBe(200);
    const profile = Profile.parse(res.json());
    expect(profile).toMatchObject({ user_id: aliceId, first_name: 'Alicia', last_name: 'Nguyen-Park', company: 'Acme Research', alias: 'Ali', email: 'alice@acme.example' });
    // A colleague sees the change in the company contact and in the directory.
    const seen = await contact(bob, aliceId);
    expect(seen).toMatchObject({ name: 'Alicia Nguyen-Park', first_name: 'Alicia', last_name: 'Nguyen-Park', company: 'Acme Research', readonly: true });
    expect(await indexRow(bob, aliceId)).toEqual([`u${aliceId}`, 'Alicia Nguyen-Park', '1001', 'alice@acme.example', 'Acme Research', 0, 'User']);
    // A PATCH changes only what it names.
    const again = Profile.parse((await patch(alice, aliceId, { last_name: 'Nguyen' })).json());
    expect(again).toMatchObject({ first_name: 'Alicia', last_name: 'Nguyen', company: 'Acme Research', alias: 'Ali' });
    expect(Profile.parse((await patch(alice, aliceId, { first_name: 'Alice', company: 'Acme Corp', alias: null })).json()).alias).toBeNull();
  });

  it('account owners and administrators update colleagues (EDIT_USER)', async () => {
    const byAdmin = await patch(mateo, bobId, { company: 'Acme Sales' });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect((await contact(alice, bobId)).company).toBe('Acme Sales');
    const byOwner = await patch(olivia, bobId, { company: 'Acme Corp', email: 'robert@acme.example' });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect((await contact(alice, bobId)).emails[0]).toMatchObject({ email: 'robert@acme.example', is_default: true });
    const lists = await put(mateo, `/v1/users/${bobId}/email-addresses`, { items: [{ id: null, email: 'bob.m@acme.example', custom_type: 'Sales' }] });
    expect(lists.statusCode, lists.body).toBe(200);
  });

  it('a standard user cannot update a colleague: 403 with a clear message, and nothing changes', async () => {
    const res = await patch(bob, carolId, { last_name: 'Hacked' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', message: expect.stringMatching(/account owners and administrators/) });
    for (const [url, body] of [
      [`/v1/users/${carolId}/email-addresses`, { items: [] }],
      [`/v1/users/${carolId}/phone-numbers`, { items: [] }],
    ] as const) {
      expect((await put(bob, url, body)).statusCode).toBe(403);
    }
    const addresses = UserAddressListWire.parse((await get(bob, `/v1/users/${carolId}/addresses`)).json());
    expect((await put(bob, `/v1/users/${carolId}/addresses/${addresses.items[0]!.address_id}`, { ...blankAddress(), city: 'Nowhere' })).statusCode).toBe(403);
    // Even invalid data from someone not allowed is a refusal, not a list of field problems.
    expect((await patch(bob, carolId, { first_name: '' })).statusCode).toBe(403);
    expect((await contact(alice, carolId)).last_name).toBe('Okafor');
  });

  it('another organisation’s user looks like a refusal (403), for reading and for writing', async () => {
    expect((await patch(rita, aliceId, { last_name: 'X' })).statusCode).toBe(403);
    expect((await patch(olivia, ritaId, { last_name: 'X' })).statusCode).toBe(403);
    expect((await get(rita, `/v1/users/${aliceId}/email-addresses`)).statusCode).toBe(403);
    expect((await get(rita, `/v1/users/${aliceId}/addresses`)).statusCode).toBe(403);
    expect((await put(rita, `/v1/users/${aliceId}/phone-numbers`, { items: [] })).statusCode).toBe(403);
    // A user id that does not exist answers the same.
    expect((await patch(olivia, 999_999, { last_name: 'X' })).statusCode).toBe(403);
  });

  it('validation: 400 validation_failed with one {path, message} per problem', async () => {
    const res = await patch(alice, aliceId, { first_name: ' ', last_name: '', email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed' });
    expect(res.json().details).toEqual([
      { path: 'first_name', message: 'required' },
      { path: 'last_name', message: 'required' },
      { path: 'email', message: 'email_invalid' },
    ]);
    const empty = await patch(alice, aliceId, { email: '' });
    expect(empty.json().details).toEqual([{ path: 'email', message: 'required' }]);
    // A misspelt field is named instead of being ignored.
    const typo = await patch(alice, aliceId, { frist_name: 'A' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().details).toEqual([{ path: 'frist_name', message: 'unknown_field' }]);
    const tooLong = await patch(alice, aliceId, { last_name: 'x'.repeat(101) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().details[0].path).toBe('last_name');
    expect(Profile.parse((await get(alice, `/v1/users/${aliceId}`)).json()).last_name).toBe('Nguyen');
  });

  it('a password change is a request of its own: mixed with the profile it is refused whole, nothing else changes', async () => {
    const res = await patch(alice, aliceId, { last_name: 'Changed', current_password: 'Demo-pass-1', new_password: 'Another-pass-2' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', details: [{ path: 'last_name', message: 'not_with_password' }] });
    expect(Profile.parse((await get(alice, `/v1/users/${aliceId}`)).json()).last_name).toBe('Nguyen');
  });

  it('e-mail list: entries without a custom type get Custom, new ids (null) are assigned, kept ids stay', async () => {
    const url = `/v1/users/${aliceId}/email-addresses`;
    const empty = await get(alice, url);
    expect(empty.statusCode).toBe(200);
    expect(UserEmailListWire.parse(empty.json()).items).toEqual([]);
    const saved = await put(alice, url, { items: [{ id: null, email: 'alice.home@example.org', custom_type: null }, { id: null, email: 'a.n@example.org', custom_type: 'Board' }] });
    expect(saved.statusCode, saved.body).toBe(200);
    const items = UserEmailListWire.parse(saved.json()).items;
    expect(items.map((e) => [e.email, e.custom_type])).toEqual([['alice.home@example.org', 'Custom'], ['a.n@example.org', 'Board']]);
    expect(items.every((e) => typeof e.id === 'number' && e.id > 0)).toBe(true);
    // Keep the second (by id), drop the first, add one.
    const next = UserEmailListWire.parse((await put(alice, url, { items: [{ id: items[1]!.id, email: 'an@example.org', custom_type: '' }, { id: null, email: 'third@example.org', custom_type: null }] })).json()).items;
    expect(next[0]).toEqual({ id: items[1]!.id, email: 'an@example.org', custom_type: 'Custom' });
    expect(next.map((e) => e.email)).toEqual(['an@example.org', 'third@example.org']);
    expect(UserEmailListWire.parse((await get(alice, url)).json()).items).toEqual(next);
    // Invalid entries: one problem each, at the entry.
    const bad = await put(alice, url, { items: [{ id: null, email: 'nope', custom_type: null }, { id: null, email: 'ok@example.org', custom_type: null }, { id: null, email: ' ', custom_type: null }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'items.0.email', message: 'email_invalid' }, { path: 'items.2.email', message: 'required' }]);
    // The company contact lists the primary first (the default), then the list.
    const c = await contact(bob, aliceId);
    expect(c.emails.map((e) => [e.email, e.is_default])).toEqual([['alice@acme.example', true], ['an@example.org', false], ['third@example.org', false]]);
  });

  it('phone numbers: the extension stays, personal numbers follow the phone pattern, the company contact shows them', async () => {
    const url = `/v1/users/${aliceId}/phone-numbers`;
    const initial = UserPhoneListWire.parse((await get(alice, url)).json()).items;
    expect(initial).toEqual([{ source: 'extension', source_id: null, extension: '1001', number: null, is_primary: true, type: 'work', custom_type: null }]);

    const bad = await put(alice, url, { items: [
      { source: 'extension', source_id: null, extension: '1099', number: null, is_primary: false },
      { source: 'personal', source_id: null, extension: null, number: '12', is_primary: false },
      { source: 'personal', source_id: null, extension: null, number: null, is_primary: false },
      { source: 'personal', source_id: null, extension: '12a', number: '(415) 555-0142', is_primary: false },
    ] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([
      { path: 'items.0.extension', message: 'extension_read_only' },
      { path: 'items.1.number', message: 'phone_invalid' },
      { path: 'items.2.number', message: 'phone_empty' },
      { path: 'items.3.extension', message: 'extension_invalid' },
    ]);

    const saved = await put(alice, url, { items: [
      { source: 'extension', source_id: null, extension: '1001', number: null, is_primary: false },
      { source: 'personal', source_id: null, extension: null, number: '(415) 555-0142', is_primary: true, type: 'mobile' },
      { source: 'personal', source_id: null, extension: '12', number: '+12125550199', is_primary: false, type: 'custom', custom_type: 'Lab' },
      { source: 'personal', source_id: null, extension: null, number: '911', is_primary: false },
    ] });
    expect(saved.statusCode, saved.body).toBe(200);
    const items = UserPhoneListWire.parse(saved.json()).items;
    expect(items.map((p) => [p.source, p.number ?? p.extension, p.is_primary, p.type])).toEqual([
      ['extension', '1001', false, 'work'],
      ['personal', '(415) 555-0142', true, 'mobile'],
      ['personal', '+12125550199', false, 'custom'],
      ['personal', '911', false, 'mobile'],
    ]);
    expect(items[2]).toMatchObject({ extension: '12', custom_type: 'Lab' });
    // The profile carries the same numbers, with the profile's five phone fields only (no types).
    const raw = (await get(alice, `/v1/users/${aliceId}`)).json();
    const profile = Profile.parse(raw);
    expect(profile.phone_numbers.map((p) => p.number ?? p.extension)).toEqual(['1001', '(415) 555-0142', '+12125550199', '911']);
    expect(raw.phone_numbers[1]).toEqual({ source: 'personal', source_id: items[1]!.source_id, extension: null, number: '(415) 555-0142', is_primary: true });

    // Keep one by its id (sourceId ≤ 0 is sent as null: a new row), drop the others.
    const kept = items[1]!.source_id!;
    const next = UserPhoneListWire.parse((await put(alice, url, { items: [{ source: 'personal', source_id: kept, extension: null, number: '(415) 555-0143', is_primary: false }] })).json()).items;
    expect(next).toEqual([
      { source: 'extension', source_id: null, extension: '1001', number: null, is_primary: true, type: 'work', custom_type: null },
      { source: 'personal', source_id: kept, extension: null, number: '(415) 555-0143', is_primary: false, type: 'mobile', custom_type: null },
    ]);

    // A colleague sees the number, finds Alice by it and in the "with phone numbers" group.
    const c = await contact(bob, aliceId);
    expect(c.phone_numbers.map((p) => [p.source, p.formatted_phone_number, p.is_primary])).toEqual([['extension', '1001', true], ['personal', '(415) 555-0143', false]]);
    expect((await indexRow(bob, aliceId))?.[2]).toBe('1001 (415)555-0143');
    const search = await get(bob, '/v1/contacts?group=user&search=5550143');
    expect(search.json().items.map((x: { id: string }) => x.id)).toEqual([`u${aliceId}`]);
    const phones = await get(bob, '/v1/contacts?group=phones&search=5550143&limit=500');
    expect(phones.json().items.map((x: { id: string }) => x.id)).toContain(`u${aliceId}`);
  });

  it('addresses: one profile address (USA by default), updated by id; the rules of a contact address apply', async () => {
    const list = UserAddressListWire.parse((await get(alice, `/v1/users/${aliceId}/addresses`)).json()).items;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ user_id: aliceId, country: 'USA', street_1: '', phone: null });
    // Asking again creates nothing new.
    expect(UserAddressListWire.parse((await get(alice, `/v1/users/${aliceId}/addresses`)).json()).items).toEqual(list);
    // A blank address is not shown on the company contact.
    expect((await contact(bob, aliceId)).addresses).toEqual([]);

    const url = `/v1/users/${aliceId}/addresses/${list[0]!.address_id}`;
    const bad = await put(alice, url, { ...blankAddress(), country: 'CAN', state: 'CA', phone: '12' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'state', message: 'state_not_allowed' }, { path: 'phone', message: 'phone_invalid' }]);
    const badZip = await put(alice, url, { ...blankAddress(), zip_code: '9410', zip_plus_four: '12' });
    expect(badZip.json().details).toEqual([{ path: 'zip_code', message: 'zip_invalid' }, { path: 'zip_plus_four', message: 'zip_invalid' }]);

    const saved = await put(alice, url, { ...blankAddress(), street_1: '1 Market St', apt_number: '4B', city: 'San Francisco', state: 'CA', zip_code: '94105', zip_plus_four: '1234', phone: '(415) 555-0100' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(UserAddressWire.parse(saved.json())).toMatchObject({ address_id: list[0]!.address_id, street_1: '1 Market St', city: 'San Francisco', phone: '(415) 555-0100' });
    // Left out, the phone is kept.
    const { phone: _phone, ...noPhone } = { ...blankAddress(), street_1: '2 Market St', city: 'San Francisco', state: 'CA', zip_code: '94105' };
    expect(UserAddressWire.parse((await put(alice, url, noPhone)).json()).phone).toBe('(415) 555-0100');
    const c = await contact(bob, aliceId);
    expect(c.addresses).toEqual([expect.objectContaining({ address_id: list[0]!.address_id, street_1: '2 Market St', city: 'San Francisco', state: 'CA', zip_code: '94105', country: 'USA', source: 'User' })]);
    // Another user's address id is not this user's.
    const carolAddress = UserAddressListWire.parse((await get(olivia, `/v1/users/${carolId}/addresses`)).json()).items[0]!;
    expect((await put(alice, `/v1/users/${aliceId}/addresses/${carolAddress.address_id}`, blankAddress())).statusCode).toBe(404);
  });

  it('reading a colleague’s profile lists is allowed within the organisation', async () => {
    expect((await get(bob, `/v1/users/${aliceId}/email-addresses`)).statusCode).toBe(200);
    expect((await get(bob, `/v1/users/${aliceId}/phone-numbers`)).statusCode).toBe(200);
    expect((await get(bob, `/v1/users/${aliceId}`)).statusCode).toBe(200);
  });
  it("the profile's photo: one's own only, images only, shown to colleagues on the company contact", async () => {
    const upload = (token: string, id: number, part: ReturnType<typeof multipart>) =>
      t.app.inject({ method: 'POST', url: `/v1/users/${id}/avatar`, payload: part.payload, headers: { ...bearer(token), ...part.headers } });
    const ok = await upload(alice, aliceId, multipart('photo', 'me.png', 'image/png', PNG));
    expect(ok.statusCode).toBe(200);
    const href = ok.json().avatar_href as string;
    expect(Profile.parse((await get(alice, `/v1/users/${aliceId}`)).json()).avatar_href).toBe(href);
    // A colleague sees it on alice's company contact, and may fetch it.
    expect((await contact(bob, aliceId)).avatar_href).toBe(href);
    expect((await get(bob, href)).rawPayload.equals(PNG)).toBe(true);
    // Not someone else's photo, not a text file.
    expect((await upload(bob, aliceId, multipart('photo', 'x.png', 'image/png', PNG))).statusCode).toBe(403);
    expect((await upload(alice, aliceId, multipart('photo', 'x.png', 'image/png', Buffer.from('not an image')))).statusCode).toBe(415);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/users/${aliceId}/avatar`, headers: bearer(bob) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/users/${aliceId}/avatar`, headers: bearer(alice) })).statusCode).toBe(204);
    expect(Profile.parse((await get(alice, `/v1/users/${aliceId}`)).json()).avatar_href).toBeNull();
  });
});

function blankAddress() {
  return { street_1: '', street_2: '', apt_number: '', city: '', state: '', county: '', country: 'USA', zip_code: '', zip_plus_four: '', phone: null as string | null };
}
