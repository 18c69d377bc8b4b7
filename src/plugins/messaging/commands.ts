import i18next from 'i18next';
import { subscribe } from 'valtio';
import { command, defineCommands, Navigation, option, type CommandContext, type CommandRow, type Enablement, type WhenFn } from '../../kernel';
import { AdHocInvitesApi, type PresenceState } from '../../contracts';
import { ROLE } from '../../wire/roles';
import { chatChunk } from './chunk';
import { chat, CHAT_PATH, chatPath, COMPOSE_EVENT, MESSAGE_INPUT_ID, ROOM_NEW_PATH, type ComposeAction } from './state';
import { displayNumber, newTextPath, texts, TEXTS_PATH, textPath } from './texts/state';

/** The limited-access role has no chat, no presence and no texts. */
export const hasChat: WhenFn = (ctx) => ctx.roleId !== ROLE.LIMITED_ACCESS;

const why = (key: string): Enablement => ({ reasonKey: `messaging:reasons.${key}` });
const connected = (): Enablement => (chat.status === 'connected' ? true : why('offline'));
const unread = () => Object.values(chat.sessions).filter((s) => s.unread > 0 && !s.muted);
const anyUnread = (): Enablement => (unread().length ? true : why('noUnread'));
/** A conversation is on screen and chat is connected: its message box can take emoji and files. */
const composing = (): Enablement => (!chat.open ? why('noOpen') : connected());
const compose = (what: ComposeAction): void => void window.dispatchEvent(new CustomEvent<ComposeAction>(COMPOSE_EVENT, { detail: what }));
const haveNumber = (): Enablement => (texts.dids.length ? true : { reasonKey: 'messaging:texts.reasons.noNumber' });
const go = (ctx: CommandContext, to: string) => ctx.services.get(Navigation).navigate(to);

/** The longest custom status text. */
export const CUSTOM_STATUS_MAX = 100;
/** Why a custom status text cannot be used (a translation key), or null. */
export function customStatusProblem(text: string): string | null {
  const t = text.trim();
  if (!t) return 'messaging:customStatus.empty';
  return t.length > CUSTOM_STATUS_MAX ? 'messaging:customStatus.tooLong' : null;
}

/** The colleague of the one-to-one conversation on screen. */
const openPeer = () => (chat.open && chat.sessions[chat.open]?.type !== 'groupchat' ? chat.contacts.find((c) => c.jid === chat.open) : undefined);
/** "Meet now" in a conversation's header: the meetings' rule (their service), on the colleague on screen. */
function meetNowEnabled(ctx: CommandContext): Enablement {
  const adhoc = ctx.services.maybe(AdHocInvitesApi);
  if (!adhoc) return { reasonKey: 'shell:commandUnavailable' };
  const peer = openPeer();
  return peer ? adhoc.enablement(ctx.context.features, peer.user_id, peer.user_id === ctx.context.userId) : why('noOpen');
}

const STATES: readonly PresenceState[] = ['available', 'away', 'busy', 'donotdisturb', 'lunch', 'invisible', 'unavailable'];

/**
 * Mute/unmute, pin/unpin, close, leave: on a session the palette asks for (or an entity names). The
 * work is the engine's, in the lazy chunk.
 */
const sessionRow = (keywords: readonly string[], groupsOnly = false) => {
  const sessions = () => Object.values(chat.sessions).filter((s) => !groupsOnly || s.type === 'groupchat');
  return {
    keywords,
    enabled: (): Enablement => (groupsOnly && chat.status !== 'connected' ? why('offline') : sessions().length ? true : why(groupsOnly ? 'noGroups' : 'noSessions')),
    args: [{ name: 'jid', titleKey: 'messaging:args.session', kind: 'choice', options: () => sessions().map((s) => option(s.jid, s.name, s.jid)) }],
  } as const;
};

// Argument titles and presence names live in the lazily loaded strings: the palette asks for them
// only after the chat chunk (fetched right after the first screen) has brought them.

/*
 * Chat, then texts (SMS/MMS), then the open conversation's message box. The hotkeys are listed in
 * this order in the shortcuts dialog. Every command is hidden from the limited-access role (the
 * table's `when`).
 */
export const messagingTable = {
  // With a `jid` (a session's palette entity) it opens that conversation.
  go: command({ keywords: ['chat', 'messages', 'im'], keys: 'g t', given: { jid: 'string' }, run: (ctx, a) => go(ctx, a.jid !== undefined ? chatPath(a.jid) : CHAT_PATH) }),
  newChat: { keywords: ['chat', 'start'], keys: 'Shift+C', run: (ctx) => go(ctx, `${CHAT_PATH}/new`) },
  newGroup: { keywords: ['group', 'room', 'muc', 'team', 'chat'], enabled: connected, run: (ctx) => go(ctx, `${ROOM_NEW_PATH}?type=muc`) },
  toggleMute: sessionRow(['mute', 'unmute', 'silence', 'notifications']),
  pin: sessionRow(['pin', 'unpin', 'favourite', 'top']),
  close: sessionRow(['close', 'hide', 'archive']),
  leave: sessionRow(['leave', 'exit', 'group', 'room'], true),
  message: command({
    keywords: ['chat', 'im', 'write'],
    enabled: connected,
    args: [{ name: 'jid', titleKey: 'messaging:args.contact', kind: 'choice', options: () => chat.contacts.map((c) => option(c.jid, c.name, c.jid)) }],
    // The user means to write: the message box has the focus, not the screen's heading.
    run: (ctx, a) => {
      if (a.jid === undefined) return;
      chat.focusComposer = a.jid;
      go(ctx, chatPath(a.jid));
    },
  }),
  // The palette has the meetings' "Meet now ▸ Bob"; this is the conversation header's button.
  meetNow: {
    keywords: ['meet now', 'video', 'ad-hoc meeting'],
    listed: 'never',
    enabled: meetNowEnabled,
    run: (ctx) => {
      const peer = openPeer();
      if (peer) ctx.services.maybe(AdHocInvitesApi)?.invite(peer.user_id, peer.name);
    },
  },
  nextUnread: {
    keywords: ['unread'],
    keys: 'g u',
    enabled: anyUnread,
    run: (ctx) => {
      const s = unread().sort((a, b) => b.lastActivity - a.lastActivity)[0];
      if (s) go(ctx, chatPath(s.jid));
    },
  },
  markAllRead: { keywords: ['read', 'seen'], enabled: anyUnread },
  // Turns the chime for new messages in other conversations off or on (saved for every device).
  chatSound: { keywords: ['sound', 'chime', 'beep', 'audio', 'notifications'] },
  setPresence: {
    keywords: ['status', 'presence', 'away', 'busy', 'dnd'],
    args: [{ name: 'state', titleKey: 'messaging:args.presence', kind: 'choice', options: () => STATES.map((s) => option(s, i18next.t(`messaging:presence.${s}`), s)) }],
  },
  // Custom status: free text colleagues see next to the name (the user counts as available).
  customStatus: {
    keywords: ['status', 'custom status', 'presence', 'status message', 'what I am doing'],
    args: [{ name: 'text', titleKey: 'messaging:customStatus.text', kind: 'text', validate: customStatusProblem }],
  },

  // Texts: with a `jid` (a conversation's palette entity) it opens that conversation.
  'texts.go': command({
    titleKey: 'messaging:texts.commands.go',
    keywords: ['sms', 'mms', 'texts', 'messages'],
    keys: 'g x',
    given: { jid: 'string' },
    run: (ctx, a) => go(ctx, a.jid !== undefined ? textPath(a.jid) : TEXTS_PATH),
  }),
  // The conversation on screen (the texts screen's Mute button does the same).
  'texts.toggleMute': { titleKey: 'messaging:texts.commands.toggleMute', keywords: ['mute', 'unmute', 'silence', 'notifications', 'sms'], enabled: () => (texts.open ? true : { reasonKey: 'messaging:reasons.noOpen' }) },
  'texts.new': { titleKey: 'messaging:texts.commands.new', keywords: ['sms', 'mms', 'text', 'write'], keys: 'Shift+X', enabled: haveNumber, run: (ctx) => go(ctx, `${TEXTS_PATH}/new`) },
  // "Text ▸ number": a conversation's number or any number typed.
  'texts.text': command({
    titleKey: 'messaging:texts.commands.text',
    keywords: ['sms', 'mms', 'send'],
    enabled: haveNumber,
    args: [
      {
        name: 'number',
        titleKey: 'messaging:texts.args.number',
        kind: 'choice',
        allowFreeText: true,
        // Typed: an inferred parameter would keep `command` from inferring the argument's type.
        validate: (text: string) => (/^\D*1?(\D*\d){10}\D*$/.test(text) ? null : 'messaging:texts.reasons.notUs'),
        options: () =>
          Object.values(texts.conversations)
            .filter((s) => s.kind === 'sms')
            .map((s) => ({ ...option(s.jid, displayNumber(s.members[0]!), s.members[0]!), keywords: [s.members[0]!] })),
      },
    ],
    run: (ctx, a) => {
      if (a.number !== undefined) go(ctx, newTextPath(a.number));
    },
  }),

  // The open conversation's input (the message bar's textarea carries this id).
  focusInput: {
    keywords: ['input', 'type', 'write', 'compose'],
    keys: 'Alt+i',
    enabled: () => (chat.open && chat.sessions[chat.open] ? true : why('noOpen')),
    run: () => document.getElementById(MESSAGE_INPUT_ID)?.focus(),
  },
  // The open conversation's emoji picker and file chooser (its message box listens; no chunk is loaded for it).
  insertEmoji: { keywords: ['emoji', 'smiley', 'emoticon', 'reaction'], enabled: composing, run: () => compose('emoji') },
  attachFile: { keywords: ['attach', 'file', 'upload', 'picture', 'photo', 'image', 'video', 'document'], enabled: composing, run: () => compose('attach') },
} as const satisfies Record<string, CommandRow>;

/** What the rows above read to be enabled and to offer their choices (kept next to them). */
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

/** Rows without a run (the engine's work, the chat sound) run in the chat chunk, with its strings. */
export const messagingCommands = defineCommands('messaging', messagingTable, {
  when: hasChat,
  lazy: () => chatChunk.load().then((m) => m.runs),
});
