/**
 * Groups made through the API against the real ejabberd of this run: the room exists with every
 * member an owner and subscribed (MucSub), a member offline at the time gets the messages, and a
 * removed member's clients are told (ejabberd itself says nothing to a subscriber who loses the
 * affiliation) while ejabberd sets them to none.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatRoom, ROOMS_CHANGED_SUBJECT } from '../../src/wire/chatRooms';
import { XmppTokenResponse } from '../../src/wire/services';
import { xmppProvisioning } from '../../server/chat/routes';
import { mucHost } from '../../server/services/ejabberd';
import { xmppApi } from '../../server/services/xmpp-api';
import { startServicesApi, type ServicesApi } from './harness';
import { $msg } from 'strophe.js';
import { child, StropheClient } from './peers/xmpp_strophe';

let api: ServicesApi;
const open: StropheClient[] = [];

beforeAll(async () => {
  api = await startServicesApi();
  await xmppProvisioning(api.app);
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await api?.close();
});

async function client(username: string): Promise<StropheClient> {
  const t = XmppTokenResponse.parse(await api.get('/v1/xmpp-token', await api.login(username)));
  const c = await StropheClient.connect(`ws://127.0.0.1:${api.cfg.ports.xmppHttp}/ws`, `${t.jid}/t-${randomUUID().slice(0, 6)}`, t.token);
  open.push(c);
  return c;
}

async function call(user: string, method: 'POST' | 'PUT', url: string, payload: object) {
  const res = await api.app.inject({ method, url, headers: { authorization: `Bearer ${await api.login(user)}` }, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return ChatRoom.parse(res.json());
}

describe('groups made through the API', () => {
  it('become members-only MucSub rooms with owners; an offline member gets messages; a removed member is told and set to none', async () => {
    const [bob, carol] = [await api.userId('bob'), await api.userId('carol')];
    const alice = await client('alice');
    const room = await call('alice', 'POST', '/v1/chat/rooms', { subject: `Ops ${randomUUID().slice(0, 6)}`, member_ids: [bob, carol] });
    const name = room.jid.split('@')[0]!;
    const ejabberd = xmppApi(api.cfg);
    const affs = await ejabberd.call<Array<{ username: string; affiliation: string }>>('get_room_affiliations', { name, service: mucHost(api.cfg) });
    expect(affs.map((a) => `${a.username}:${a.affiliation}`).sort()).toEqual(['alice:owner', 'bob:owner', 'carol:owner']);
    expect((await ejabberd.call<string[]>('get_subscribers', { name, service: mucHost(api.cfg) })).length).toBe(3);
    // alice's client was told that her groups changed.
    await alice.waitForMessage((m) => m.type === 'headline' && child(m.stanza, 'subject')?.textContent === ROOMS_CHANGED_SUBJECT, 5000, 'groups-changed notice');

    // carol is offline: alice posts; carol signs in and gets it from offline storage (MucSub).
    const text = `hello group ${randomUUID().slice(0, 6)}`;
    alice.sendChat(room.jid, text, 'groupchat');
    await alice.waitForMessage((m) => m.mucsub && m.body === text, 10_000, 'MucSub echo');
    const carolC = await client('carol');
    await carolC.waitForMessage((m) => m.mucsub && m.body === text, 10_000, 'offline MucSub delivery');

    // alice removes carol: affiliation none, no subscription, and carol's client is told.
    await call('alice', 'PUT', `/v1/chat/rooms/${room.jid}`, { member_ids: [bob] });
    const after = await ejabberd.call<Array<{ username: string; affiliation: string }>>('get_room_affiliations', { name, service: mucHost(api.cfg) });
    expect(after.filter((a) => a.affiliation === 'owner').map((a) => a.username).sort()).toEqual(['alice', 'bob']);
    expect((await ejabberd.call<string[]>('get_subscribers', { name, service: mucHost(api.cfg) })).map((j) => j.split('@')[0]).sort()).toEqual(['alice', 'bob']);
    const notice = await carolC.waitForMessage((m) => m.type === 'headline' && child(m.stanza, 'subject')?.textContent === ROOMS_CHANGED_SUBJECT && (m.body ?? '').includes(room.jid), 5000, 'removal notice');
    expect(notice.from).toBe(api.cfg.domain);
  });

  it("reaches every other client of the user when one of them saves its read positions (a headline to its own bare JID)", async () => {
    const one = await client('olivia');
    const two = await client('olivia');
    one.conn.send($msg({ to: 'olivia@' + api.cfg.domain, type: 'headline' }).c('x', { xmlns: 'urn:uc:chats:0' }).tree());
    const got = await two.waitForMessage((m) => m.type === 'headline' && !!child(m.stanza, 'x', 'urn:uc:chats:0'), 5000, 'saved-positions notice');
    expect(got.from).toBe(one.jid);
  });
});
