import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE } from '../../server/auth/throttle';
import { ApiErrorBody } from '../../src/wire/common';
import { PasswordSetupInfo, PasswordSetupIssued } from '../../src/wire/passwordSetup';
import { OrgUserList } from '../../src/wire/wizard';
import { backends, bearer, multipart, startTestServer, type TestServer } from './helpers';

/** Users imported without a password get a one-time "set your password" link (issue 24). */
describe.each(backends)('set-password links ($name)', (backend) => {
  let t: TestServer;
  const token: Record<string, string> = {};
  let northwind: number;
  let harbor: number;
  let acme: number;
  // Each test its own client address, so the throttle of one does not reach another.
  let ip = 0;
  const nextIp = () => `10.7.0.${++ip}`;

  beforeAll(async () => {
    t = await startTestServer(backend);
    for (const u of ['rita', 'hana', 'alice', 'olivia']) token[u] = await t.login(u);
    const orgs = await t.db.query<{ id: number; name: string }>('SELECT id, name FROM organizations');
    const byName = new Map(orgs.rows.map((o) => [o.name, o.id]));
    northwind = byName.get('Northwind Partners')!;
    harbor = byName.get('Harbor Telecom')!;
    acme = byName.get('Acme Corp')!;
    const m = multipart('file', 'team.csv', 'text/csv', Buffer.from(['Username,FirstName,LastName,Enabled', 'lea.new,Lea,Neu,Yes', 'tom.new,Tom,Neu,Yes', 'off.new,Off,Neu,No'].join('\n')));
    const res = await t.app.inject({ method: 'PATCH', url: `/v1/organizations/${northwind}/users`, headers: { ...bearer(token.rita!), ...m.headers }, payload: m.payload });
    expect(res.statusCode, res.body).toBe(200);
    // rita imports into her customer Acme Corp too (olivia is its account owner, alice a standard user).
    const a = multipart('file', 'acme.csv', 'text/csv', Buffer.from(['Username,FirstName,LastName,Enabled', 'ann.acme,Ann,Acme,Yes', 'ben.acme,Ben,Acme,Yes'].join('\n')));
    const resAcme = await t.app.inject({ method: 'PATCH', url: `/v1/organizations/${acme}/users`, headers: { ...bearer(token.rita!), ...a.headers }, payload: a.payload });
    expect(resAcme.statusCode, resAcme.body).toBe(200);
  });
  afterAll(() => t?.close());

  const issue = (user: string, orgId: number, username: string) =>
    t.app.inject({ method: 'POST', url: `/v1/organizations/${orgId}/users/${encodeURIComponent(username)}/password-setup`, headers: bearer(token[user]!) });
  const issued = async (username: string) => {
    const res = await issue('rita', northwind, username);
    expect(res.statusCode, res.body).toBe(201);
    return PasswordSetupIssued.parse(res.json());
  };
  const check = (tok: string, remoteAddress = nextIp()) => t.app.inject({ method: 'POST', url: '/v1/password-setup/check', payload: { token: tok }, remoteAddress });
  const redeem = (tok: string, password: string, remoteAddress = nextIp()) => t.app.inject({ method: 'POST', url: '/v1/password-setup', payload: { token: tok, password }, remoteAddress });
  const refusal = (res: { statusCode: number; json(): unknown }, status: number, code: string) => {
    expect(res.statusCode).toBe(status);
    const body = ApiErrorBody.parse(res.json());
    expect(body.error).toBe(code);
    expect(body.message.length).toBeGreaterThan(5);
    return body.message;
  };
  const signIn = (username: string, password: string) => t.app.inject({ method: 'POST', url: '/login', payload: { username, password }, remoteAddress: nextIp() });

  it('the users list says who has no password', async () => {
    const users = OrgUserList.parse((await t.app.inject({ method: 'GET', url: `/v1/organizations/${northwind}/users`, headers: bearer(token.rita!) })).json()).items;
    expect(users.find((u) => u.Username === 'lea.new')?.HasPassword).toBe(false);
    expect(users.find((u) => u.Username === 'rita')?.HasPassword).toBe(true);
  });

  it('an imported user without a password: the link names them, sets the password (the rules apply) and signs them in, once', async () => {
    const link = await issued('lea.new');
    expect(link.username).toBe('lea.new');
    const days = (Date.parse(link.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    expect(PasswordSetupInfo.parse((await check(link.token)).json())).toMatchObject({ username: 'lea.new', name: 'Lea Neu' });
    // Before: no sign-in at all.
    expect((await signIn('lea.new', 'Welcome-2026!')).statusCode).toBe(401);
    // The password change's rules, each refused rule named.
    const weak = await redeem(link.token, 'welcome');
    expect(weak.statusCode).toBe(400);
    expect(ApiErrorBody.parse(weak.json()).details?.map((d) => d.message).sort()).toEqual(['rule_digit', 'rule_length', 'rule_special', 'rule_uppercase']);
    const res = await redeem(link.token, 'Welcome-2026!');
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json() as { access_token: string; user_id: number };
    expect(session.user_id).toBe(await t.userId('lea.new'));
    expect(String(res.headers['set-cookie'])).toMatch(/HttpOnly/i);
    expect((await t.app.inject({ method: 'GET', url: `/v1/users/${session.user_id}`, headers: bearer(session.access_token) })).statusCode).toBe(200);
    expect((await signIn('lea.new', 'Welcome-2026!')).statusCode).toBe(200);
    // Single use.
    refusal(await redeem(link.token, 'Another-2026!'), 410, 'link_used');
    refusal(await check(link.token), 410, 'link_used');
    expect((await signIn('lea.new', 'Another-2026!')).statusCode).toBe(401);
    // And nobody issues another: lea has a password now.
    refusal(await issue('rita', northwind, 'lea.new'), 409, 'has_password');
  });

  it('expires', async () => {
    const link = await issued('tom.new');
    await t.db.query(`UPDATE password_setup_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [await t.userId('tom.new')]);
    refusal(await check(link.token), 410, 'link_expired');
    refusal(await redeem(link.token, 'Welcome-2026!'), 410, 'link_expired');
    expect((await signIn('tom.new', 'Welcome-2026!')).statusCode).toBe(401);
  });

  it('a new link replaces the unused one', async () => {
    const first = await issued('tom.new');
    const second = await issued('tom.new');
    refusal(await redeem(first.token, 'Welcome-2026!'), 404, 'link_invalid');
    expect((await redeem(second.token, 'Welcome-2026!')).statusCode).toBe(200);
  });

  it('only the reseller’s administrators, for their organisations’ enabled users without a password', async () => {
    refusal(await issue('rita', northwind, 'off.new'), 409, 'user_disabled');
    refusal(await issue('rita', northwind, 'rita'), 409, 'has_password');
    expect((await issue('rita', northwind, 'nobody.here')).statusCode).toBe(404);
    // Another reseller's organisation, a customer-level user, another organisation's user.
    expect((await issue('hana', northwind, 'off.new')).statusCode).toBe(403);
    expect((await issue('rita', harbor, 'hana')).statusCode).toBe(403);
    expect((await issue('alice', northwind, 'off.new')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/v1/organizations/${northwind}/users/off.new/password-setup` })).statusCode).toBe(401);
  });

  it('an organisation’s own account owner issues links for its users, and only for them', async () => {
    // olivia owns Acme Corp (a customer organisation, not reseller level): her own users…
    const res = await issue('olivia', acme, 'ann.acme');
    expect(res.statusCode, res.body).toBe(201);
    const link = PasswordSetupIssued.parse(res.json());
    expect((await signIn('ann.acme', 'Welcome-2026!')).statusCode).toBe(401);
    expect((await redeem(link.token, 'Welcome-2026!')).statusCode).toBe(200);
    expect((await signIn('ann.acme', 'Welcome-2026!')).statusCode).toBe(200);
    // …and rita, Acme's reseller administrator, too.
    expect((await issue('rita', acme, 'ben.acme')).statusCode).toBe(201);
    // Not her reseller's organisation, not another reseller's, and not as a standard user of Acme.
    expect(refusal(await issue('olivia', northwind, 'tom.new'), 403, 'forbidden')).toMatch(/reseller/i);
    refusal(await issue('olivia', harbor, 'hana'), 403, 'forbidden');
    refusal(await issue('alice', acme, 'ben.acme'), 403, 'forbidden');
    // Harbor's administrator cannot reach Acme's users either.
    refusal(await issue('hana', acme, 'ben.acme'), 403, 'forbidden');
    // A username of another organisation, asked in her own: not one of hers.
    expect((await issue('olivia', acme, 'tom.new')).statusCode).toBe(404);
  });

  it('a malformed or unknown token is a 4xx with a message; guessing is throttled', async () => {
    expect((await check('short')).statusCode).toBe(400);
    expect((await redeem('short', 'Welcome-2026!')).statusCode).toBe(400);
    const guesser = '10.7.9.9';
    const guesses = [];
    // Past the client address's free failures (THROTTLE.freeFailures.client), waits start.
    for (let i = 0; i < THROTTLE.freeFailures.client + 2; i++) guesses.push((await check('x'.repeat(43), guesser)).statusCode);
    expect(guesses.slice(0, 3)).toEqual([404, 404, 404]);
    expect(guesses).toContain(429);
  });
});
