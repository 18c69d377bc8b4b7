import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatContactsResponse } from '../../src/wire/services';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

describe.each(backends)('GET /v1/chat/contacts ($name)', (backend) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(backend);
  });
  afterAll(() => t?.close());

  it('lists the colleagues one may chat with: same organisation, not oneself, not the limited-access role', async () => {
    const res = await t.app.inject({ url: '/v1/chat/contacts', headers: bearer(await t.login('alice')) });
    expect(res.statusCode).toBe(200);
    const { contacts } = ChatContactsResponse.parse(res.json());
    const jids = contacts.map((c) => c.jid);
    expect(jids).toContain('bob@uc.local');
    expect(jids).toContain('olivia@uc.local');
    expect(jids).not.toContain('alice@uc.local');
    expect(jids).not.toContain('dave@uc.local');
    expect(jids).not.toContain('rita@uc.local');
    expect(contacts.find((c) => c.jid === 'bob@uc.local')).toMatchObject({ name: 'Bob Martinez', user_id: await t.userId('bob') });
  });

  it('refuses the limited-access role, as the token does', async () => {
    const res = await t.app.inject({ url: '/v1/chat/contacts', headers: bearer(await t.login('dave')) });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Chat is not available for your role');
  });

  it('needs a login', async () => {
    expect((await t.app.inject({ url: '/v1/chat/contacts' })).statusCode).toBe(401);
  });
});
