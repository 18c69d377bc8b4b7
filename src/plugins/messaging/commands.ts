import i18next from 'i18next';
import { Navigation, type CommandContext, type CommandContribution, type ContextSnapshot, type Enablement, lazyEngineChunk } from '../../kernel';
import type { PresenceState } from '../../contracts';
import { chat, CHAT_PATH, chatPath, COMPOSE_EVENT, MESSAGE_INPUT_ID, ROOM_NEW_PATH, type ComposeAction } from './state';

type Lazy = typeof import('./lazy');
type SessionAction = Parameters<Engine['sessionAction']>[0];
type Engine = NonNullable<Awaited<ReturnType<Lazy['startEngine']>>>;

/** The one chat chunk, with its strings. */
const chunk = lazyEngineChunk(() => import('./lazy'));
export const loadLazy = chunk.load;
export const withEngine = (ctx: Pick<CommandContext, 'services'>, work: (e: Engine) => unknown) => chunk.withEngine(ctx.services, work);
/** The running engine, without loading the chat chunk for it. */
export const currentEngineIfLoaded = chunk.currentIfLoaded;
export const stopEngineIfStarted = chunk.stop;

/** The limited-access role (4) has no chat and no presence. */
export const hasChat = (ctx: ContextSnapshot) => ctx.roleId !== 4;

const why = (key: string): Enablement => ({ reasonKey: `messaging:reasons.${key}` });
const connected = (): Enablement => (chat.status === 'connected' ? true : why('offline'));
const unread = () => Object.values(chat.sessions).filter((s) => s.unread > 0 && !s.muted);
/** A conversation is on screen and chat is connected: its message box can take emoji and files. */
const composing = (): Enablement => (!chat.open ? why('noOpen') : connected());
const compose = (what: ComposeAction): void => void window.dispatchEvent(new CustomEvent<ComposeAction>(COMPOSE_EVENT, { detail: what }));


/** The longest custom status text. */
export const CUSTOM_STATUS_MAX = 100;
/** Why a custom status text cannot be used (a translation key), or null. */
export function customStatusProblem(text: string): string | null {
  const t = text.trim();
  if (!t) return 'messaging:customStatus.empty';
  return t.length > CUSTOM_STATUS_MAX ? 'messaging:customStatus.tooLong' : null;
}

const STATES: readonly PresenceState[] = ['available', 'away', 'busy', 'donotdisturb', 'lunch', 'invisible', 'unavailable'];
const go = (ctx: CommandContext, to: string) => ctx.services.get(Navigation).navigate(to);

// Argument titles and presence names live in the lazily loaded strings: the palette asks for them
// only after the chat chunk (fetched right after the first screen) has brought them.

const cmd = (name: string, keywords: string[], extra: Omit<CommandContribution, 'id' | 'titleKey'>): CommandContribution => ({
  id: `messaging.${name}`,
  titleKey: `messaging:commands.${name}`,
  keywords,
  when: hasChat,
  ...extra,
});

/**
 * Mute/unmute, pin/unpin, close, leave: on a session the palette asks for (or an entity names). The
 * work is the engine's (lazy); a session that left the bar while on screen sends the user to the list.
 */
const sessionCmd = (name: SessionAction, keywords: string[], groupsOnly = false) => {
  const sessions = () => Object.values(chat.sessions).filter((s) => !groupsOnly || s.type === 'groupchat');
  return cmd(name, keywords, {
    enabled: () => (groupsOnly && chat.status !== 'connected' ? why('offline') : sessions().length ? true : why(groupsOnly ? 'noGroups' : 'noSessions')),
    args: [{ name: 'jid', titleKey: 'messaging:args.session', kind: 'choice', options: () => sessions().map((s) => ({ id: s.jid, label: s.name, value: s.jid })) }],
    run: (ctx, a) =>
      withEngine(ctx, async (e) => {
        const jid = String(a.jid);
        if ((await e.sessionAction(name, jid)) && chat.open === jid) go(ctx, CHAT_PATH);
      }),
  });
};

export const messagingCommands: readonly CommandContribution[] = [
  // With a `jid` (a session's palette entity) it opens that conversation.
  cmd('go', ['chat', 'messages', 'im'], { run: (ctx, a) => go(ctx, typeof a.jid === 'string' ? chatPath(a.jid) : CHAT_PATH) }),
  cmd('newChat', ['chat', 'start'], { run: (ctx) => go(ctx, `${CHAT_PATH}/new`) }),
  cmd('newGroup', ['group', 'room', 'muc', 'team', 'chat'], { enabled: connected, run: (ctx) => go(ctx, `${ROOM_NEW_PATH}?type=muc`) }),
  sessionCmd('toggleMute', ['mute', 'unmute', 'silence', 'notifications']),
  sessionCmd('pin', ['pin', 'unpin', 'favourite', 'top']),
  sessionCmd('close', ['close', 'hide', 'archive']),
  sessionCmd('leave', ['leave', 'exit', 'group', 'room'], true),
  // The open conversation's input (the message bar's textarea carries this id).
  cmd('focusInput', ['input', 'type', 'write', 'compose'], {
    enabled: () => (chat.open && chat.sessions[chat.open] ? true : why('noOpen')),
    run: () => document.getElementById(MESSAGE_INPUT_ID)?.focus(),
  }),
  // The open conversation's emoji picker and file chooser (its message box listens; no chunk is loaded for it).
  cmd('insertEmoji', ['emoji', 'smiley', 'emoticon', 'reaction'], { enabled: composing, run: () => compose('emoji') }),
  cmd('attachFile', ['attach', 'file', 'upload', 'picture', 'photo', 'image', 'video', 'document'], { enabled: composing, run: () => compose('attach') }),
  cmd('message', ['chat', 'im', 'write'], {
    enabled: connected,
    args: [{ name: 'jid', titleKey: 'messaging:args.contact', kind: 'choice', options: () => chat.contacts.map((c) => ({ id: c.jid, label: c.name, value: c.jid })) }],
    // The user means to write: the message box has the focus, not the screen's heading.
    run: (ctx, a) => {
      chat.focusComposer = String(a.jid);
      go(ctx, chatPath(String(a.jid)));
    },
  }),
  cmd('nextUnread', ['unread'], {
    enabled: () => (unread().length ? true : why('noUnread')),
    run: (ctx) => {
      const s = unread().sort((a, b) => b.lastActivity - a.lastActivity)[0];
      if (s) go(ctx, chatPath(s.jid));
    },
  }),
  cmd('markAllRead', ['read', 'seen'], {
    enabled: () => (unread().length ? true : why('noUnread')),
    run: (ctx) => withEngine(ctx, (e) => e.markAllRead()),
  }),
  // Turns the chime for new messages in other conversations off or on (saved for every device).
  cmd('chatSound', ['sound', 'chime', 'beep', 'audio', 'notifications'], { run: (ctx) => loadLazy().then((m) => m.chatAlerts(ctx.services).toggleSound()) }),
  cmd('setPresence', ['status', 'presence', 'away', 'busy', 'dnd'], {
    args: [{ name: 'state', titleKey: 'messaging:args.presence', kind: 'choice', options: () => STATES.map((s) => ({ id: s, label: i18next.t(`messaging:presence.${s}`), value: s })) }],
    run: (ctx, a) => withEngine(ctx, (e) => e.setPresence(a.state as PresenceState)),
  }),
  // Custom status: free text colleagues see next to the name (the user counts as available).
  cmd('customStatus', ['status', 'custom status', 'presence', 'status message', 'what I am doing'], {
    args: [{ name: 'text', titleKey: 'messaging:customStatus.text', kind: 'text', validate: customStatusProblem }],
    run: (ctx, a) => withEngine(ctx, (e) => e.setPresence('custom', String(a.text ?? ''))),
  }),
];
