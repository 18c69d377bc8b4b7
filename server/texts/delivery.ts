import type { ServicesConfig } from '../services/layout';
import { xmppApi } from '../services/xmpp-api';
import { xmppJid } from '../services/xmpp-token';
import type { TextConversation, TextMessage } from '../../src/wire/texts';

/** The namespace of the element that carries a text's details inside its XMPP message. */
export const TEXTS_NS = 'urn:uc:texts:0';

/** Puts a text in front of every client of a user, live, and in the user's archive. */
export interface TextDelivery {
  deliver(username: string, conversation: TextConversation, message: TextMessage): Promise<void>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** The XMPP message for a text: plain body plus the conversation and message as JSON. */
export function textStanza(conversation: TextConversation, message: TextMessage): string {
  const payload = JSON.stringify({ conversation: { ...conversation, last: null, unread: 0 }, message });
  return `<message xmlns='jabber:client' type='chat' id='${esc(message.id)}'><body>${esc(message.body)}</body><text xmlns='${TEXTS_NS}'>${esc(payload)}</text></message>`;
}

/**
 * Through ejabberd (mod_http_api `send_stanza`), from the conversation's address to the user's bare
 * JID: ejabberd routes it to every connected resource, archives it (MAM) and keeps it offline for a
 * user with no client connected, exactly like a chat message.
 */
export function ejabberdDelivery(services: ServicesConfig): TextDelivery {
  const api = xmppApi(services);
  return {
    async deliver(username, conversation, message) {
      await api.call('send_stanza', { from: conversation.jid, to: xmppJid(services, username), stanza: textStanza(conversation, message) }, 5000);
    },
  };
}
