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

/**
 * The XMPP message for a text: a headline (every connected resource gets it; chat clients ignore
 * headlines) whose only content is the conversation and message as JSON: no `<body>`, so no chat
 * client mistakes it for a chat message. The archive of record is the API's store, which clients
 * read on every (re)connect.
 */
export function textStanza(conversation: TextConversation, message: TextMessage): string {
  const payload = JSON.stringify({ conversation: { ...conversation, last: null, unread: 0 }, message });
  return `<message xmlns='jabber:client' type='headline' id='${esc(message.id)}'><text xmlns='${TEXTS_NS}'>${esc(payload)}</text></message>`;
}

/**
 * Through ejabberd (mod_http_api `send_stanza`), from the conversation's address to the user's bare
 * JID: ejabberd routes a headline to every connected resource of the user at once.
 */
export function ejabberdDelivery(services: ServicesConfig): TextDelivery {
  const api = xmppApi(services);
  return {
    async deliver(username, conversation, message) {
      await api.call('send_stanza', { from: conversation.jid, to: xmppJid(services, username), stanza: textStanza(conversation, message) }, 5000);
    },
  };
}
