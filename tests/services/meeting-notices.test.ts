/**
 * Meeting invitations through the real ejabberd of this run: an invited colleague's client gets a
 * chat message from the booker (send_stanza through mod_http_api) when a meeting is created,
 * changed and cancelled; a colleague not invited gets nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { xmppProvisioning } from '../../server/chat/routes';
import { Meeting } from '../../src/wire/meetings';
import { XmppTokenResponse } from '../../src/wire/services';
import { startServicesApi, type ServicesApi } from './harness';
import { StropheClient } from './peers/xmpp_strophe';

let api: ServicesApi;
const open: StropheClient[] = [];

async function client(username: string): Promise<StropheClient> {
  const t = XmppTokenResponse.parse(await api.get('/v1/xmpp-token', await api.login(username)));
  const c = await StropheClient.connect(`ws://127.0.0.1:${api.cfg.ports.xmppHttp}/ws`, `${t.jid}/meet-${randomUUID().slice(0, 6)}`, t.token);
  open.push(c);
  return c;
}

beforeAll(async () => {
  api = await startServicesApi();
  await xmppProvisioning(api.app);
});
afterEach(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
});
afterAll(async () => {
  await api?.close();
});

describe('meeting chat notices through ejabberd', () => {
  it('the invitee hears of the invitation, the change and the cancellation from the booker', async () => {
    const [bob, carol] = [await client('bob'), await client('carol')];
    const alice = await api.login('alice');
    const bobId = await api.userId('bob');
    const name = `Sync ${randomUUID().slice(0, 6)}`;
    const start = Date.now() + 3_600_000;
    const body = { meeting_name: name, start: new Date(start).toISOString(), end: new Date(start + 1_800_000).toISOString(), invitees: [{ user_id: bobId }] };
    const created = Meeting.parse(await api.post('/v1/meetings', alice, body));
    const invite = await bob.waitForMessage((m) => m.body?.includes(`invited you to the meeting "${name}"`) ?? false, 10_000, 'the invitation');
    expect(invite.type).toBe('chat');
    expect(invite.from.split('/')[0]).toMatch(/^alice@/);
    expect(invite.body).toContain(created.url!);

    const put = await api.app.inject({ method: 'PUT', url: `/v1/meetings/${created.id}`, headers: { authorization: `Bearer ${alice}` }, payload: { ...body, meeting_name: `${name} (moved)` } });
    expect(put.statusCode).toBe(200);
    await bob.waitForMessage((m) => m.body?.includes(`changed the meeting "${name} (moved)"`) ?? false, 10_000, 'the change');
    const del = await api.app.inject({ method: 'DELETE', url: `/v1/meetings/${created.id}`, headers: { authorization: `Bearer ${alice}` } });
    expect(del.statusCode).toBe(204);
    await bob.waitForMessage((m) => m.body?.includes(`cancelled the meeting "${name} (moved)"`) ?? false, 10_000, 'the cancellation');
    // A ping round trip orders it after anything ejabberd had queued for carol.
    await carol.ping();
    expect(carol.received.filter((m) => m.body?.includes(name))).toEqual([]);
  });
});
