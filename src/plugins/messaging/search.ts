import { subscribe } from 'valtio';
import { toDisposable, type SearchProvider } from '../../kernel';
import { hasChat, messagingCommands } from './commands';
import { chat } from './state';
import { displayNumber, texts } from './texts/state';

const { ids } = messagingCommands;

/** Every session is a palette entity ("Go to chat ▸"); groups too, found by their members' names. Tab offers mute, pin and close on each. */
export const chatsSearch: SearchProvider = {
  id: 'chats',
  kindKey: 'messaging:title',
  items: (ctx) =>
    hasChat(ctx)
      ? Object.values(chat.sessions).map((s) => ({
          id: `chats:${s.jid}`,
          label: s.name,
          detail: s.type === 'groupchat' ? s.members.map((m) => m.name).join(', ') : s.jid,
          keywords: s.type === 'groupchat' ? s.members.map((m) => m.name) : undefined,
          actions: [ids.go, ids.toggleMute, ids.pin, ids.close].map((command) => ({ command, args: { jid: s.jid } })),
        }))
      : [],
  subscribe: (onChange) => {
    let key = '';
    // A new or ended session, or a renamed group, changes the entities; a new message does not.
    return toDisposable(subscribe(chat.sessions, () => key !== (key = Object.values(chat.sessions).map((s) => `${s.jid} ${s.name}`).join('\n')) && onChange()));
  },
};

/** Every text conversation is a palette entity ("Go to texts ▸ (212) 555-0123"). */
export const textsSearch: SearchProvider = {
  id: 'texts',
  kindKey: 'messaging:texts.kind',
  items: (ctx) =>
    hasChat(ctx)
      ? Object.values(texts.conversations).map((s) => ({
          id: `texts:${s.jid}`,
          label: s.members.map(displayNumber).join(', '),
          detail: s.members.join(' '),
          actions: [{ command: ids['texts.go'], args: { jid: s.jid } }],
        }))
      : [],
  subscribe: (onChange) => {
    let n = 0;
    // A new conversation changes the entities; a new text does not.
    return toDisposable(subscribe(texts.conversations, () => n !== (n = Object.keys(texts.conversations).length) && onChange()));
  },
};
