import { expect, test } from './csp-guard';
import { XmppTokenResponse } from '../src/wire/services';
import { SlixmppPeer } from '../tests/services/peers/xmpp_slixmpp';
import { input, log, send } from './chat-helpers';
import { DEMO_PASSWORD, signedInPerson } from './fixtures';
import { suiteServicesConfig } from './services-control';

// Interop: bob's client here is slixmpp (Debian's python3-slixmpp, tests/services/peers/xmpp_peer.py,
// plain TCP c2s), an XMPP client that shares no code with ours; alice is in the browser. Bob's
// account is the one the API provisioned in ejabberd, and he signs in with the API's XMPP token
// like every client of the product.

test('a slixmpp user (not our code) messages alice in the browser, and receives her reply with the exact text', async ({ browser, baseURL, request }) => {
  const run = Date.now().toString(36);
  const login = await request.post('/login', { data: { username: 'bob', password: DEMO_PASSWORD } });
  expect(login.status()).toBe(200);
  const { access_token } = (await login.json()) as { access_token: string };
  const token = XmppTokenResponse.parse(await (await request.get('/v1/xmpp-token', { headers: { authorization: `Bearer ${access_token}` } })).json());
  const domain = token.jid.split('@')[1]!;
  const peer = SlixmppPeer.start();
  const alice = await signedInPerson(browser, baseURL!, 'alice');
  try {
    const started = await peer.connect({ jid: `${token.jid}/slixmpp`, password: token.token, port: suiteServicesConfig().ports.xmppC2s });
    expect(started.event).toBe('session_start');

    // Alice waits on her chat list (g t); bob's message opens a conversation there, unread.
    await alice.keyboard.press('Alt+n');
    await alice.keyboard.press('g');
    await alice.keyboard.press('t');
    await expect(alice.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
    await peer.send(`alice@${domain}`, `hello from slixmpp ${run} <b>not bold</b> & ü`);
    const session = alice.getByRole('row', { name: /Bob Martinez/ });
    await expect(session).toBeVisible({ timeout: 20_000 });
    await session.focus();
    await alice.keyboard.press('Enter');
    await expect(log(alice, 'Bob Martinez')).toContainText(`hello from slixmpp ${run} <b>not bold</b> & ü`);
    expect(await log(alice, 'Bob Martinez').locator('b').count()).toBe(0);

    // Alice answers by keyboard; slixmpp gets it from her browser's resource, text intact.
    await input(alice, 'Bob Martinez').focus();
    await send(alice, 'Bob Martinez', `hi slixmpp ${run} — ça va? 👋`);
    const reply = await peer.waitFor((e) => e.event === 'message' && e.body === `hi slixmpp ${run} — ça va? 👋`, 15_000, 'alice’s reply');
    expect(String(reply.from)).toMatch(new RegExp(`^alice@${domain.replace(/\./g, '\\.')}/`));
    expect(reply.type).toBe('chat');
    await expect(log(alice, 'Bob Martinez').getByRole('listitem').filter({ hasText: `hi slixmpp ${run}` })).toHaveCount(1);
  } finally {
    await peer.close();
    await alice.context().close();
  }
});
