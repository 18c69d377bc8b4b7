import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waiting } from '../../server/meetings/admissions-repository';
import { phoneEntry } from '../../server/meetings/phone-admission';
import { meetingById } from '../../server/meetings/repository';
import { Meeting } from '../../src/wire/meetings';
import { backends, bearer, startTestServer, type TestServer } from './helpers';

/*
 * The meeting's rules for a phone (the real SIP call is in tests/services/meeting-dial-in.test.ts):
 * who comes straight in, and what is left behind by a phone that gives up or is never let in.
 */
describe.each(backends)('a phone at the door ($name)', (backend) => {
  let t: TestServer;
  let alice = '';
  const ext = async (username: string) => (await t.db.query<{ extension: string }>('SELECT extension FROM users WHERE username = $1', [username])).rows[0]!.extension;
  beforeAll(async () => {
    t = await startTestServer(backend, { app: { settings: { meetingUrl: 'https://meet.acme.example' }, meetings: { chat: null, rooms: { ensure: async (id) => ({ room: id, pin: 'p' }), participants: async () => [], moderate: async () => undefined, kick: async () => undefined, destroy: async () => undefined, close: async () => undefined } } } });
    alice = await t.login('alice');
  });
  afterAll(async () => t?.close());

  const meeting = async (rules: Record<string, boolean>) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/meetings', headers: bearer(alice), payload: { meeting_name: 'Door', instant: true, ...rules } });
    expect(res.statusCode, res.body).toBe(201);
    return (await meetingById(t.db, Meeting.parse(res.json()).id))!;
  };
  const entry = (m: Awaited<ReturnType<typeof meeting>>, caller: string | null, o: { calling?: () => boolean; maxMs?: number; rang?: () => void } = {}) =>
    phoneEntry({ db: t.db, rooms: { participants: async () => [] }, meeting: m, caller, callerNumber: caller ?? '0612345678', calling: o.calling ?? (() => true), ringing: o.rang ?? (() => undefined), ...(o.maxMs !== undefined ? { maxMs: o.maxMs } : {}) });

  it("the host's own phone comes straight in, without ringing, whatever the rules", async () => {
    let rang = 0;
    expect(await entry(await meeting({ waiting_room: true, only_mods: true }), await ext('alice'), { rang: () => rang++ })).toBe('in');
    expect(rang).toBe(0);
  });

  it("member bypass lets a colleague's phone in, never an outside caller's; no rules, everyone's", async () => {
    expect(await entry(await meeting({ waiting_room: true, member_bypass: true }), await ext('bob'))).toBe('in');
    expect(await entry(await meeting({}), null)).toBe('in');
  });

  it('a phone that hangs up while waiting, or is never let in, leaves nobody in the waiting list', async () => {
    const m = await meeting({ waiting_room: true, member_bypass: true });
    let asks = 0;
    // Still calling for the first look (it is listed), gone at the second.
    expect(await entry(m, null, { calling: () => asks++ < 1 })).toBe('hung-up');
    expect(await waiting(t.db, m.id, new Date(0))).toEqual([]);
    const held = await meeting({ waiting_room: true });
    expect(await entry(held, await ext('bob'), { maxMs: 1500 })).toBe('timed-out');
    expect(await waiting(t.db, held.id, new Date(0))).toEqual([]);
  });
});
