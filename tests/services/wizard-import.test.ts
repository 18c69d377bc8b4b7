/**
 * The onboarding wizard's bulk import against the real servers of this run: a user imported from a
 * CSV by rita signs in, gets a chat account (a session on the real ejabberd) and a phone line (a
 * desk phone registered on the real Kamailio with the user's own credentials), and a colleague's
 * call to the new extension reaches that phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XmppTokenResponse } from '../../src/wire/services';
import { ImportReport } from '../../src/wire/wizard';
import { deskPhoneFor, startServicesApi, type ServicesApi } from './harness';
import type { Baresip } from './peers/sip_baresip';
import { SlixmppPeer } from './peers/xmpp_slixmpp';
import { signedInPhones, type SignedInPhones } from './sip-page';

let api: ServicesApi;
let signedIn: SignedInPhones | null = null;
let desk: Baresip | null = null;
let peer: SlixmppPeer | null = null;

beforeAll(async () => {
  api = await startServicesApi();
});
afterAll(async () => {
  await peer?.close().catch(() => undefined);
  await desk?.stop().catch(() => desk?.kill());
  await signedIn?.close();
  await api?.close();
});

async function importCsv(token: string, orgId: number, csv: string) {
  const boundary = '----ucwizard';
  const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="team.csv"\r\nContent-Type: text/csv\r\n\r\n`), Buffer.from(csv), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const res = await api.app.inject({ method: 'PATCH', url: `/v1/organizations/${orgId}/users`, headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
  expect(res.statusCode, res.body).toBe(200);
  return ImportReport.parse(res.json());
}

describe('users imported by the wizard', () => {
  it('sign in, chat on ejabberd, register a phone on Kamailio and take a colleague’s call', async () => {
    const rita = await api.login('rita');
    const org = (await api.db.query<{ id: number }>(`SELECT id FROM organizations WHERE name = 'Northwind Partners'`)).rows[0]!.id;
    const report = await importCsv(rita, org, 'Username,FirstName,LastName,Enabled,Password\nwes.imported,Wes,Imported,Yes,Welcome-2026!\n');
    expect(report.refused).toEqual([]);
    expect(report.accepted).toHaveLength(1);
    const extension = report.accepted[0]!.Extension;

    const wes = await api.login('wes.imported', 'Welcome-2026!');
    // Chat: the account is made in ejabberd at the first token, and a real client opens a session with it.
    const token = XmppTokenResponse.parse(await api.get('/v1/xmpp-token', wes));
    expect(token.jid).toBe(`wes.imported@${api.cfg.domain}`);
    peer = SlixmppPeer.start();
    const session = await peer.connect({ jid: `${token.jid}/slixmpp`, password: token.token, port: api.cfg.ports.xmppC2s });
    expect(session.event).toBe('session_start');

    // Phone: his own time-limited credentials register a desk phone; rita (Northwind, one organisation) calls his extension.
    desk = await deskPhoneFor(api, wes);
    signedIn = await signedInPhones(api, ['rita']);
    const since = desk.events.length;
    const key = await signedIn.phones.rita!.call(extension);
    expect(await signedIn.phones.rita!.waitFor(key, 'confirmed')).toMatchObject({ confirmed: true });
    await desk.waitEvent((e) => e.type === 'CALL_ESTABLISHED', 10_000, since);
    await signedIn.phones.rita!.hangup(key);
    await desk.waitEvent((e) => e.type === 'CALL_CLOSED', 10_000, since);
  }, 120_000);
});
