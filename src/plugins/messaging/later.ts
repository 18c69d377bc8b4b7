import { subscribe } from 'valtio';
import { Navigation, type CommandContext, type Enablement, type PluginLater } from '../../kernel';
import { AdHocInvitesApi } from '../../contracts';
import { messagingCommands } from './commands';
import { chatsSearch, textsSearch } from './search';
import { chat, chatPath } from './state';
import { texts } from './texts/state';

/*
 * The later part (loaded after the first screen): the words the palette finds each command by,
 * whether it may run (the connection, the sessions, the conversation on screen, the texts'
 * numbers), with the reason shown beside it when it may not, and the palette's chats and texts.
 */

const why = (key: string): Enablement => ({ reasonKey: `messaging:reasons.${key}` });
const connected = (): Enablement => (chat.status === 'connected' ? true : why('offline'));
const unread = () => Object.values(chat.sessions).filter((s) => s.unread > 0 && !s.muted);
const anyUnread = (): Enablement => (unread().length ? true : why('noUnread'));
/** A conversation is on screen and chat is connected: its message box can take emoji and files. */
const composing = (): Enablement => (!chat.open ? why('noOpen') : connected());
const haveNumber = (): Enablement => (texts.dids.length ? true : { reasonKey: 'messaging:texts.reasons.noNumber' });

/** Mute, pin, close, leave need a session (leave: a group, and the connection). */
const sessionEnabled =
  (groupsOnly = false) =>
  (): Enablement =>
    groupsOnly && chat.status !== 'connected'
      ? why('offline')
      : Object.values(chat.sessions).some((s) => !groupsOnly || s.type === 'groupchat')
        ? true
        : why(groupsOnly ? 'noGroups' : 'noSessions');

/** The colleague of the one-to-one conversation on screen. */
const openPeer = () => (chat.open && chat.sessions[chat.open]?.type !== 'groupchat' ? chat.contacts.find((c) => c.jid === chat.open) : undefined);
/** "Meet now" in a conversation's header: the meetings' rule (their service), on the colleague on screen. */
function meetNowEnabled(ctx: CommandContext): Enablement {
  const adhoc = ctx.services.maybe(AdHocInvitesApi);
  if (!adhoc) return { reasonKey: 'shell:commandUnavailable' };
  const peer = openPeer();
  return peer ? adhoc.enablement(ctx.context.features, peer.user_id, peer.user_id === ctx.context.userId) : why('noOpen');
}

/** What the commands read to be enabled and to offer their choices. */
function commandInputs(): unknown[] {
  const out: unknown[] = [chat.status, chat.open, chat.contacts];
  for (const s of Object.values(chat.sessions)) out.push(s.jid, s.type, s.name, s.muted, s.unread > 0);
  return out;
}

/**
 * Calls `onChange` when something the commands read changed. A message, a receipt, a chat state or
 * a keystroke in a message box changes none of it: each used to re-render every menu, bound button
 * and the palette of the frame, the larger part of painting a message that arrives (bench/chat.ts).
 */
export function subscribeCommandInputs(onChange: () => void): () => void {
  let last = commandInputs();
  return subscribe(chat, () => {
    const now = commandInputs();
    if (now.length === last.length && now.every((v, i) => v === last[i])) return;
    last = now;
    onChange();
  });
}

export const later: PluginLater = {
  commands: messagingCommands.later({
    go: { keywords: ['chat', 'messages', 'im'] },
    newChat: { keywords: ['chat', 'start'] },
    newGroup: { keywords: ['group', 'room', 'muc', 'team', 'chat'], enabled: connected },
    toggleMute: { keywords: ['mute', 'unmute', 'silence', 'notifications'], enabled: sessionEnabled() },
    pin: { keywords: ['pin', 'unpin', 'favourite', 'top'], enabled: sessionEnabled() },
    close: { keywords: ['close', 'hide', 'archive'], enabled: sessionEnabled() },
    leave: { keywords: ['leave', 'exit', 'group', 'room'], enabled: sessionEnabled(true) },
    message: { keywords: ['chat', 'im', 'write'], enabled: connected },
    meetNow: {
      keywords: ['meet now', 'video', 'ad-hoc meeting'],
      enabled: meetNowEnabled,
      run: (ctx) => {
        const peer = openPeer();
        if (peer) ctx.services.maybe(AdHocInvitesApi)?.invite(peer.user_id, peer.name);
      },
    },
    nextUnread: {
      keywords: ['unread'],
      enabled: anyUnread,
      run: (ctx) => {
        const s = unread().sort((a, b) => b.lastActivity - a.lastActivity)[0];
        if (s) ctx.services.get(Navigation).navigate(chatPath(s.jid));
      },
    },
    markAllRead: { keywords: ['read', 'seen'], enabled: anyUnread },
    chatSound: { keywords: ['sound', 'chime', 'beep', 'audio', 'notifications'] },
    setPresence: { keywords: ['status', 'presence', 'away', 'busy', 'dnd'] },
    customStatus: { keywords: ['status', 'custom status', 'presence', 'status message', 'what I am doing'] },
    'texts.go': { keywords: ['sms', 'mms', 'texts', 'messages'] },
    'texts.toggleMute': { keywords: ['mute', 'unmute', 'silence', 'notifications', 'sms'], enabled: () => (texts.open ? true : why('noOpen')) },
    'texts.new': { keywords: ['sms', 'mms', 'text', 'write'], enabled: haveNumber },
    'texts.text': { keywords: ['sms', 'mms', 'send'], enabled: haveNumber },
    focusInput: { keywords: ['input', 'type', 'write', 'compose'], enabled: () => (chat.open && chat.sessions[chat.open] ? true : why('noOpen')) },
    insertEmoji: { keywords: ['emoji', 'smiley', 'emoticon', 'reaction'], enabled: composing },
    attachFile: { keywords: ['attach', 'file', 'upload', 'picture', 'photo', 'image', 'video', 'document'], enabled: composing },
  }),
  searchProviders: [textsSearch, chatsSearch],
  activate(ctx) {
    // Chat commands read the connection and the sessions (mute, pin, leave, mark read).
    ctx.commandsRead(subscribeCommandInputs);
  },
};
