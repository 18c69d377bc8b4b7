import { MessageSquare } from 'lucide-react';
import { subscribe, useSnapshot } from 'valtio';
import { definePlugin, Navigation, provide, Session, toDisposable } from '../../kernel';
import { MessagingApi, PresenceApi } from '../../contracts';
import { currentEngineIfLoaded, hasChat, loadLazy, messagingCommands, stopEngineIfStarted, withEngine } from './commands';
import en from './locales/en.json';
import { textCommands, textHotkeys, textNumber, textRoutes, textsNav, textsSearch } from './texts/manifest';
import { resetTexts } from './texts/state';
import { chat, CHAT_PATH, chatPath, resetChat, ROOM_NEW_PATH, ROOM_PATH } from './state';

/** Unread messages in sessions that are not muted: the navigation badge (and so the document title). */
function useUnread(): number {
  const s = useSnapshot(chat).sessions;
  let n = 0;
  for (const k in s) if (!s[k]!.muted) n += s[k]!.unread;
  return n;
}

// The other languages, each its own chunk (a template import would also match en.json, which is in this chunk).
const otherLocales = import.meta.glob<Record<string, unknown>>(['./locales/*.json', '!./locales/en.json'], { import: 'default' });

const screen = () => loadLazy().then((m) => ({ default: m.ChatScreen }));
const route = (id: string, path: string, titleKey = 'messaging:title') => ({ id, path: CHAT_PATH + path, titleKey, component: screen });
const roomScreen = () => loadLazy().then((m) => ({ default: m.RoomEditScreen }));

/** Messaging: chat over Strophe.js + ejabberd, and presence. */
export const messagingPlugin = definePlugin({
  id: 'messaging',
  titleKey: 'messaging:title',
  i18n: {
    namespace: 'messaging',
    // English is in the boot chunk (every user needs it, as the fallback); the others on demand.
    load: (lng) => (lng === 'en' ? Promise.resolve(en) : (otherLocales[`./locales/${lng}.json`]?.() ?? Promise.reject(new Error(`messaging: no strings for ${lng}`)))),
  },
  provides: [
    provide(PresenceApi, () => ({
      ownState: () => chat.own,
      setOnCall: (onCall) => {
        if (chat.onCall === onCall) return;
        chat.onCall = onCall;
        // Not yet connected: the first presence the engine sends already carries it.
        void currentEngineIfLoaded().then((e) => e?.republishPresence());
      },
    })),
    provide(MessagingApi, (ctx) => ({
      openChat: (userId) =>
        void withEngine(ctx, () => {
          const c = chat.contacts.find((x) => x.user_id === userId);
          if (c) ctx.services.get(Navigation).navigate(chatPath(c.jid));
        }),
      newText: (number) => textNumber(ctx.services, number),
    })),
  ],
  routes: [
    route('chat', ''),
    route('chat.new', '/new', 'messaging:commands.newChat'),
    route('chat.newPrivate', '/new/private', 'messaging:commands.newChat'),
    route('chat.session', '/$jid'), ...textRoutes(loadLazy),
    // room/ redirects to the room editor with id new, type muc (specification).
    { id: 'room', path: ROOM_PATH, titleKey: 'messaging:commands.newGroup', redirect: { to: ROOM_NEW_PATH, search: { type: 'muc' } } },
    { id: 'room.edit', path: `${ROOM_PATH}/$id`, titleKey: 'messaging:commands.newGroup', component: roomScreen, validateSearch: (q) => (q.type === 'muc' ? { type: 'muc' } : {}) },
  ],
  nav: [{ id: 'chat', titleKey: 'messaging:title', to: CHAT_PATH, icon: MessageSquare, order: 12, command: 'messaging.go', when: hasChat, useBadge: useUnread, badgeLabelKey: 'messaging:badge' }, textsNav],
  menus: [
    { id: 'messaging.status', menu: 'profileMenu', command: 'messaging.setPresence', order: 10 },
    { id: 'messaging.customStatus', menu: 'profileMenu', command: 'messaging.customStatus', order: 11 },
  ],
  commands: [...messagingCommands, ...textCommands],
  hotkeys: [
    { command: 'messaging.go', keys: 'g t' },
    { command: 'messaging.newChat', keys: 'Shift+C' },
    { command: 'messaging.nextUnread', keys: 'g u' },
    ...textHotkeys,
    { command: 'messaging.focusInput', keys: 'Alt+i' },
  ],
  searchProviders: [
    textsSearch,
    {
      // Every session is a palette entity ("Go to chat ▸").
      id: 'chats',
      kindKey: 'messaging:title',
      // Groups too, found by their members' names; Tab offers mute, pin and close on each.
      items: (ctx) =>
        hasChat(ctx)
          ? Object.values(chat.sessions).map((s) => ({
              id: `chats:${s.jid}`,
              label: s.name,
              detail: s.type === 'groupchat' ? s.members.map((m) => m.name).join(', ') : s.jid,
              keywords: s.type === 'groupchat' ? s.members.map((m) => m.name) : undefined,
              actions: [
                { command: 'messaging.go', args: { jid: s.jid } },
                { command: 'messaging.toggleMute', args: { jid: s.jid } },
                { command: 'messaging.pin', args: { jid: s.jid } },
                { command: 'messaging.close', args: { jid: s.jid } },
              ],
            }))
          : [],
      subscribe: (onChange) => {
        let key = '';
        // A new or ended session, or a renamed group, changes the entities; a new message does not.
        return toDisposable(subscribe(chat.sessions, () => key !== (key = Object.values(chat.sessions).map((s) => `${s.jid} ${s.name}`).join('\n')) && onChange()));
      },
    },
  ],
  activate(ctx) {
    // Chat commands read the connection and the sessions (mute, pin, leave, mark read).
    ctx.commandsRead((onChange) => subscribe(chat, onChange));
    if (ctx.services.maybe(Session)?.config.messaging.enabled !== true) {
      chat.status = 'disabled';
      return toDisposable(resetChat);
    }
    // After the first screen: Strophe and the engine are not part of the boot bundle.
    // Until the messaging numbers are in, "new text" (Shift+X) pressed is held by the kernel, not dropped.
    ctx.afterFirstScreen((settled) => withEngine(ctx, () => loadLazy().then((m) => m.startTexts(ctx.services))).finally(settled), { settles: true });
    return toDisposable(() => {
      stopEngineIfStarted();
      resetChat();
      resetTexts();
    });
  },
});

export default messagingPlugin;
