import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/types';
import type { ServicesConfig } from '../services/layout';
import { xmppApi, type XmppApi } from '../services/xmpp-api';
import { xmppJid, xmppLocalPart } from '../services/xmpp-token';
import { chatColleagues, sharingUser } from './repository';

/** The privacy list (XEP-0016) a user who stops sharing presence gets as their default list. */
export const HIDDEN_PRESENCE_LIST = 'uc-presence-hidden';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/'/g, '&apos;').replace(/"/g, '&quot;');
const privacyQuery = (inner: string) => `<query xmlns='jabber:iq:privacy'>${inner}</query>`;

/**
 * The list: presence going out to any account of this server is dropped, except to the user's own
 * other devices. Only `<presence-out/>` is matched, so chat, calls' signalling and room
 * traffic (the rooms live on another host) are untouched.
 */
export function hiddenPresenceList(ownBareJid: string, domain: string): string {
  return privacyQuery(
    `<list name='${HIDDEN_PRESENCE_LIST}'>` +
      `<item type='jid' value='${esc(ownBareJid)}' action='allow' order='1'/>` +
      `<item type='jid' value='${esc(domain)}' action='deny' order='2'><presence-out/></item>` +
      `</list>`,
  );
}

const SHOWS = new Set(['chat', 'away', 'dnd', 'xa']);

/**
 * Makes ejabberd enforce a user's `share_presence` setting: off, their default privacy list drops
 * every presence their clients send to colleagues (directed or broadcast, whatever the client does);
 * on, that list is no longer their default. ejabberd reads the default list at each stanza of a
 * session without an active list (ours never set one), so it applies to sessions already open.
 */
export async function enforcePresenceSharing(services: ServicesConfig, username: string, share: boolean, api: XmppApi = xmppApi(services)): Promise<void> {
  const set = (inner: string) => api.call('privacy_set', { user: xmppLocalPart(username), host: services.domain, xmlquery: inner });
  if (share) return void (await set(privacyQuery('<default/>')));
  await set(hiddenPresenceList(xmppJid(services, username), services.domain));
  await set(privacyQuery(`<default name='${HIDDEN_PRESENCE_LIST}'/>`));
}

/**
 * A change of the setting: enforced, and the colleagues told at once, so nobody waits for the
 * user's next change: off, an `unavailable` from each of the user's connected devices; on, the
 * presence the user has now (ejabberd's session manager knows it).
 */
export async function applyPresenceSharing(db: Queryable, services: ServicesConfig, userId: number, share: boolean, api: XmppApi = xmppApi(services)): Promise<void> {
  const user = await sharingUser(db, userId);
  if (!user) return; // No chat account (limited access): nothing is ever sent.
  await enforcePresenceSharing(services, user.username, share, api);
  const local = xmppLocalPart(user.username);
  const bare = xmppJid(services, user.username);
  const sends: Array<{ from: string; stanza: string }> = [];
  if (share) {
    const now = await api.call<{ jid: string; show: string; status: string }>('get_presence', { user: local, server: services.domain });
    if (now && now.show !== 'unavailable') {
      const show = SHOWS.has(now.show) ? `<show>${now.show}</show>` : '';
      const status = now.status ? `<status>${esc(now.status)}</status>` : '';
      sends.push({ from: now.jid || bare, stanza: `<presence xmlns='jabber:client'>${show}${status}</presence>` });
    }
  } else {
    const resources = await api.call<string[]>('user_resources', { user: local, host: services.domain });
    for (const r of resources ?? []) sends.push({ from: `${bare}/${r}`, stanza: `<presence xmlns='jabber:client' type='unavailable'/>` });
  }
  if (!sends.length) return;
  for (const c of await chatColleagues(db, user.organizationId, userId)) {
    for (const s of sends) await api.call('send_stanza', { from: s.from, to: xmppJid(services, c.username), stanza: s.stanza });
  }
}

/** The same, for a request that must not fail because the chat server is down: logged, and applied again at the user's next chat login. */
export async function applyPresenceSharingQuietly(db: Queryable, services: ServicesConfig, log: FastifyBaseLogger, userId: number, share: boolean): Promise<void> {
  // A process that must not touch ejabberd (unit and API tests next to someone's running demo) leaves it alone.
  if (process.env.UC_XMPP_PROVISIONING === 'off') return;
  try {
    await applyPresenceSharing(db, services, userId, share);
  } catch (err) {
    log.warn({ err, userId }, 'share_presence not applied in ejabberd now; applied at the next chat login');
  }
}
