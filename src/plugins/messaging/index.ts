import { Mail, MessageSquare } from 'lucide-react';
import { definePlugin, provide, Session, toDisposable } from '../../kernel';
import { ChatPayloadsApi, MessagingApi, PeerPresenceApi, PresenceApi, RecentMessagesApi } from '../../contracts';
import { chatChunk } from './chunk';
import { hasChat, messagingCommands } from './commands';
import { chatPayloadsApi, messagingApi, peerPresenceApi, presenceApi, recentMessagesApi } from './service';
import { chat, CHAT_PATH, resetChat, ROOM_NEW_PATH, ROOM_PATH, useUnread } from './state';
import { resetTexts, TEXTS_PATH, useTextsUnread } from './texts/state';

/*
 * The boot part of the plugin is this manifest, the command table and the state proxies: the
 * engine with Strophe.js, the texts store, the screens and the commands' work are one lazy chunk
 * (`lazy.ts`), fetched after the first screen has painted; the commands' words and enablement and
 * the palette's chats and texts are the later part (`later.ts`).
 */
/** Messaging: chat over Strophe.js + ejabberd, presence, and texts (SMS/MMS). */
export const messagingPlugin = definePlugin({
  id: 'messaging',
  titleKey: 'messaging:title',
  i18n: { namespace: 'messaging' },
  provides: [provide(PresenceApi, presenceApi), provide(MessagingApi, messagingApi), provide(RecentMessagesApi, recentMessagesApi), provide(PeerPresenceApi, peerPresenceApi), provide(ChatPayloadsApi, chatPayloadsApi)],
  routes: [
    { id: 'chat', path: CHAT_PATH, titleKey: 'messaging:title', component: () => chatChunk.load().then((m) => ({ default: m.ChatScreen })) },
    { id: 'chat.new', path: `${CHAT_PATH}/new`, titleKey: 'messaging:commands.newChat', component: () => chatChunk.load().then((m) => ({ default: m.ChatScreen })) },
    { id: 'chat.newPrivate', path: `${CHAT_PATH}/new/private`, titleKey: 'messaging:commands.newChat', component: () => chatChunk.load().then((m) => ({ default: m.ChatScreen })) },
    { id: 'chat.session', path: `${CHAT_PATH}/$jid`, titleKey: 'messaging:title', component: () => chatChunk.load().then((m) => ({ default: m.ChatScreen })) },
    // `message`, `message/new` and `message/{id}`: one screen; `new` is the new-text form, `?to=` prefills it.
    {
      id: 'message',
      path: `${TEXTS_PATH}/{-$id}`,
      titleKey: 'messaging:texts.title',
      component: () => chatChunk.load().then((m) => ({ default: m.TextsScreen })),
      validateSearch: (s) => (s.to ? { to: String(s.to) } : {}),
    },
    // room/ redirects to the room editor with id new, type muc (specification).
    { id: 'room', path: ROOM_PATH, titleKey: 'messaging:commands.newGroup', redirect: { to: ROOM_NEW_PATH, search: { type: 'muc' } } },
    {
      id: 'room.edit',
      path: `${ROOM_PATH}/$id`,
      titleKey: 'messaging:commands.newGroup',
      component: () => chatChunk.load().then((m) => ({ default: m.RoomEditScreen })),
      validateSearch: (q) => (q.type === 'muc' ? { type: 'muc' } : {}),
    },
  ],
  nav: [
    { id: 'chat', titleKey: 'messaging:title', to: CHAT_PATH, icon: MessageSquare, order: 12, command: messagingCommands.ids.go, when: hasChat, useBadge: useUnread, badgeLabelKey: 'messaging:badge' },
    { id: 'texts', titleKey: 'messaging:texts.title', to: TEXTS_PATH, icon: Mail, order: 13, command: messagingCommands.ids['texts.go'], when: hasChat, useBadge: useTextsUnread, badgeLabelKey: 'messaging:texts.badge' },
  ],
  menus: [
    { id: 'messaging.plus.chat', menu: 'plusMenu', command: messagingCommands.ids.newChat, order: 10 },
    { id: 'messaging.plus.text', menu: 'plusMenu', command: messagingCommands.ids['texts.new'], order: 20 },
    { id: 'messaging.status', menu: 'profileMenu', command: messagingCommands.ids.setPresence, order: 10 },
    { id: 'messaging.customStatus', menu: 'profileMenu', command: messagingCommands.ids.customStatus, order: 11 },
  ],
  commands: messagingCommands.commands,
  hotkeys: messagingCommands.hotkeys,
  later: () => import('./later').then((m) => m.later),
  activate(ctx) {
    if (ctx.services.maybe(Session)?.config.messaging.enabled !== true) {
      chat.status = 'disabled';
      return toDisposable(resetChat);
    }
    // After the first screen: Strophe and the engine are not part of the boot bundle.
    // Until the messaging numbers are in, "new text" (Shift+X) pressed is held by the kernel, not dropped.
    ctx.afterFirstScreen((settled) => chatChunk.load().then((m) => m.start(ctx.services)).finally(settled), { settles: true });
    return toDisposable(() => {
      chatChunk.stop();
      resetChat();
      resetTexts();
    });
  },
});

export default messagingPlugin;
