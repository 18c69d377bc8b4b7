import i18next from 'i18next';
import { subscribe } from 'valtio';
import { Navigation, toDisposable, type PluginContext } from '../../kernel';
import type { ChatPayloadsService, MessagingService, PeerPresenceService, PresenceService, RecentMessage, RecentMessagesService } from '../../contracts';
import { messagePreview } from './model/preview';
import { chatChunk } from './chunk';
import { subscribePayloads } from './payloads';
import { chat, chatPath } from './state';
import { newTextPath, textPath, texts } from './texts/state';

/** Presence for the other plugins: the user's own state, telephony's "on a call", meetings' "in a meeting". */
export const presenceApi = (): PresenceService => ({
  ownState: () => chat.own,
  setOnCall: (onCall) => {
    if (chat.onCall === onCall) return;
    chat.onCall = onCall;
    // Not yet connected: the first presence the engine sends already carries it.
    void chatChunk.currentIfLoaded().then((e) => e?.republishPresence());
  },
  setInMeeting: (inMeeting) => {
    if (chat.inMeeting === inMeeting) return;
    chat.inMeeting = inMeeting;
    void chatChunk.currentIfLoaded().then((e) => e?.republishPresence());
  },
});

/** Opening a chat with a colleague (once the engine knows the contacts), or a new text to a number. */
export const messagingApi = (ctx: PluginContext): MessagingService => ({
  openChat: (userId) =>
    void chatChunk.withEngine(ctx.services, () => {
      const c = chat.contacts.find((x) => x.user_id === userId);
      if (c) ctx.services.get(Navigation).navigate(chatPath(c.jid));
    }),
  newText: (number) => ctx.services.get(Navigation).navigate(newTextPath(number)),
});

/**
 * The newest message of every chat and text conversation held in memory, for the dashboard's feed.
 * What the engine has not loaded yet (the chat engine starts after the first screen) is not there.
 */
export const recentMessagesApi = (): RecentMessagesService => ({
  recent(limit) {
    const out: RecentMessage[] = [];
    for (const s of Object.values(chat.sessions)) {
      const m = s.messages[s.messages.length - 1];
      if (m) out.push({ conversation: s.jid, name: s.name, from: m.mine ? null : s.type === 'chat' ? s.name : (s.members.find((x) => x.jid === m.from)?.name ?? m.from), text: messagePreview(m), at: m.timestamp, path: chatPath(s.jid) });
    }
    for (const c of Object.values(texts.conversations)) {
      const m = c.messages[c.messages.length - 1];
      const name = c.members.join(', ');
      if (m) out.push({ conversation: c.jid, name, from: m.direction === 'in' ? m.from : null, text: m.body || (m.media[0]?.ogName ?? ''), at: Date.parse(m.sent_at), path: textPath(c.jid) });
    }
    return out.sort((a, b) => b.at - a.at).slice(0, limit);
  },
  onChange: (listener) => {
    const a = subscribe(chat, listener);
    const b = subscribe(texts, listener);
    return toDisposable(() => (a(), b()));
  },
});

/** Colleagues' presence for other screens (the dashboard's contacts), worded with messaging's own strings. */
export const peerPresenceApi = (): PeerPresenceService => ({
  of(userId) {
    const c = chat.contacts.find((x) => x.user_id === userId);
    const p = c ? chat.presence[c.jid] : undefined;
    return p ? { state: p.state, label: p.text || i18next.t(`messaging:presence.${p.state}`) } : null;
  },
  onChange: (listener) => toDisposable(subscribe(chat, listener)),
});

/** Messages carrying another plugin's element (the meetings' ad-hoc invites), through the chat connection. */
export const chatPayloadsApi = (ctx: PluginContext): ChatPayloadsService => ({
  async send(userId, body, payload) {
    let id: string | null = null;
    await chatChunk.withEngine(ctx.services, (e) => {
      const c = chat.contacts.find((x) => x.user_id === userId);
      if (c && chat.status === 'connected') id = e.send(c.jid, body, undefined, payload);
    });
    return id;
  },
  subscribe: subscribePayloads,
});
