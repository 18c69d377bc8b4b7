import i18next from 'i18next';
import { Navigation, type CommandContext, type CommandContribution, type ContextSnapshot, type Enablement } from '../../kernel';
import type { PresenceState } from '../../kernel/pluginServices';
import { chat, CHAT_PATH, chatPath, MESSAGE_INPUT_ID, ROOM_NEW_PATH } from './state';

type Lazy = typeof import('./lazy');
type Engine = NonNullable<Awaited<ReturnType<Lazy['startEngine']>>>;

let lazyModule: Promise<Lazy> | null = null;
/** The one chat chunk, with its strings. */
export function loadLazy(): Promise<Lazy> {
  lazyModule ??= import('./lazy').then(async (m) => {
    await m.uiStrings();
    return m;
  });
  return lazyModule;
}

export async function withEngine(ctx: Pick<CommandContext, 'services'>, work: (e: Engine) => unknown): Promise<void> {
  const e = await (await loadLazy()).startEngine(ctx.services);
  if (e) await work(e);
}

/** The running engine, without loading the chat chunk for it. */
export async function currentEngineIfLoaded(): Promise<Engine | null> {
  return lazyModule ? (await lazyModule).currentEngine() : null;
}

export function stopEngineIfStarted(): void {
  void lazyModule?.then((m) => m.stopEngine());
}

/** The limited-access role (4) has no chat and no presence. */
export const hasChat = (ctx: ContextSnapshot) => ctx.roleId !== 4;

const why = (key: string): Enablement => ({ reasonKey: `messaging:reasons.${key}` });
const connected = (): Enablement => (chat.status === 'connected' ? true : why('offline'));
const unread = () => Object.values(chat.sessions).filter((s) => s.unread > 0 && !s.muted);

/** A session argument: the palette offers every open chat and group; a hotkey or entity passes the one meant. */
const sessionArg = { name: 'jid', titleKey: 'messaging:args.session', kind: 'choice' as const, options: () => Object.values(chat.sessions).map((s) => ({ id: s.jid, label: s.name, value: s.jid })) };
const sessionOf = (a: Readonly<Record<string, unknown>>) => (typeof a.jid === 'string' ? chat.sessions[a.jid] : undefined);
const hasSessions = (): Enablement => (Object.keys(chat.sessions).length ? true : why('noSessions'));

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

export const messagingCommands: readonly CommandContribution[] = [
  // With a `jid` (a session's palette entity) it opens that conversation.
  cmd('go', ['chat', 'messages', 'im'], { run: (ctx, a) => go(ctx, typeof a.jid === 'string' ? chatPath(a.jid) : CHAT_PATH) }),
  cmd('newChat', ['chat', 'start'], { run: (ctx) => go(ctx, `${CHAT_PATH}/new`) }),
  cmd('newGroup', ['group', 'room', 'muc', 'team', 'chat'], { enabled: connected, run: (ctx) => go(ctx, `${ROOM_NEW_PATH}?type=muc`) }),
  cmd('toggleMute', ['mute', 'unmute', 'silence', 'notifications'], {
    enabled: hasSessions,
    args: [sessionArg],
    run: (ctx, a) => withEngine(ctx, (e) => {
      const s = sessionOf(a);
      if (s) e.setMuted(s.jid, !s.muted);
    }),
  }),
  cmd('pin', ['pin', 'unpin', 'favourite', 'top'], {
    enabled: hasSessions,
    args: [sessionArg],
    run: (ctx, a) => withEngine(ctx, (e) => {
      const s = sessionOf(a);
      if (s) e.setRosterGroup(s.jid, chat.rosterGroups.pin.includes(s.jid) ? 'recent' : 'pin');
    }),
  }),
  cmd('close', ['close', 'hide', 'archive'], {
    enabled: hasSessions,
    args: [sessionArg],
    run: (ctx, a) => withEngine(ctx, (e) => {
      const s = sessionOf(a);
      if (!s) return;
      e.setRosterGroup(s.jid, 'closed');
      if (chat.open === s.jid) go(ctx, CHAT_PATH);
    }),
  }),
  cmd('leave', ['leave', 'exit', 'group', 'room'], {
    enabled: () => (chat.status !== 'connected' ? why('offline') : Object.values(chat.sessions).some((s) => s.type === 'groupchat') ? true : why('noGroups')),
    args: [{ ...sessionArg, options: () => Object.values(chat.sessions).filter((s) => s.type === 'groupchat').map((s) => ({ id: s.jid, label: s.name, value: s.jid })) }],
    run: (ctx, a) => withEngine(ctx, async (e) => {
      const s = sessionOf(a);
      if (s?.type !== 'groupchat') return;
      await e.leaveRoom(s.jid);
      if (chat.open === null || chat.open === s.jid) go(ctx, CHAT_PATH);
    }),
  }),
  // The open conversation's input (the message bar's textarea carries this id).
  cmd('focusInput', ['input', 'type', 'write', 'compose'], {
    enabled: () => (chat.open && chat.sessions[chat.open] ? true : why('noOpen')),
    run: () => document.getElementById(MESSAGE_INPUT_ID)?.focus(),
  }),
  cmd('message', ['chat', 'im', 'write'], {
    enabled: connected,
    args: [{ name: 'jid', titleKey: 'messaging:args.contact', kind: 'choice', options: () => chat.contacts.map((c) => ({ id: c.jid, label: c.name, value: c.jid })) }],
    run: (ctx, a) => go(ctx, chatPath(String(a.jid))),
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
  cmd('setPresence', ['status', 'presence', 'away', 'busy', 'dnd'], {
    args: [{ name: 'state', titleKey: 'messaging:args.presence', kind: 'choice', options: () => STATES.map((s) => ({ id: s, label: i18next.t(`messaging:presence.${s}`), value: s })) }],
    run: (ctx, a) => withEngine(ctx, (e) => e.setPresence(a.state as PresenceState)),
  }),
];
