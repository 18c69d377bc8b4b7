import i18next from 'i18next';
import { command, defineCommands, Navigation, option, type CommandContext, type CommandRow, type WhenFn } from '../../kernel';
import type { PresenceState } from '../../contracts';
import { ROLE } from '../../wire/roles';
import { chatChunk } from './chunk';
import { chat, CHAT_PATH, chatPath, COMPOSE_EVENT, MESSAGE_INPUT_ID, ROOM_NEW_PATH, type ComposeAction } from './state';
import { displayNumber, newTextPath, texts, TEXTS_PATH, textPath } from './texts/state';

/** The limited-access role has no chat, no presence and no texts. */
export const hasChat: WhenFn = (ctx) => ctx.roleId !== ROLE.LIMITED_ACCESS;

const compose = (what: ComposeAction): void => void window.dispatchEvent(new CustomEvent<ComposeAction>(COMPOSE_EVENT, { detail: what }));
const go = (ctx: CommandContext, to: string) => ctx.services.get(Navigation).navigate(to);

/** The longest custom status text. */
export const CUSTOM_STATUS_MAX = 100;
/** Why a custom status text cannot be used (a translation key), or null. */
export function customStatusProblem(text: string): string | null {
  const t = text.trim();
  if (!t) return 'messaging:customStatus.empty';
  return t.length > CUSTOM_STATUS_MAX ? 'messaging:customStatus.tooLong' : null;
}

const STATES: readonly PresenceState[] = ['available', 'away', 'busy', 'donotdisturb', 'lunch', 'invisible', 'unavailable'];

/**
 * Mute/unmute, pin/unpin, close, leave: on a session the palette asks for (or an entity names). The
 * work is the engine's, in the lazy chunk.
 */
const sessionRow = (groupsOnly = false) =>
  ({
    args: [
      {
        name: 'jid',
        titleKey: 'messaging:args.session',
        kind: 'choice',
        options: () =>
          Object.values(chat.sessions)
            .filter((s) => !groupsOnly || s.type === 'groupchat')
            .map((s) => option(s.jid, s.name, s.jid)),
      },
    ],
  }) as const;

// Argument titles and presence names live in the lazily loaded strings: the palette asks for them
// only after the chat chunk (fetched right after the first screen) has brought them.

/*
 * Chat, then texts (SMS/MMS), then the open conversation's message box. The hotkeys are listed in
 * this order in the shortcuts dialog. Every command is hidden from the limited-access role (the
 * table's `when`).
 */
export const messagingTable = {
  // With a `jid` (a session's palette entity) it opens that conversation.
  go: command({ keys: 'g t', given: { jid: 'string' }, run: (ctx, a) => go(ctx, a.jid !== undefined ? chatPath(a.jid) : CHAT_PATH) }),
  newChat: { keys: 'Shift+C', run: (ctx) => go(ctx, `${CHAT_PATH}/new`) },
  newGroup: { run: (ctx) => go(ctx, `${ROOM_NEW_PATH}?type=muc`) },
  toggleMute: sessionRow(),
  pin: sessionRow(),
  close: sessionRow(),
  leave: sessionRow(true),
  message: command({
    args: [{ name: 'jid', titleKey: 'messaging:args.contact', kind: 'choice', options: () => chat.contacts.map((c) => option(c.jid, c.name, c.jid)) }],
    // The user means to write: the message box has the focus, not the screen's heading.
    run: (ctx, a) => {
      if (a.jid === undefined) return;
      chat.focusComposer = a.jid;
      go(ctx, chatPath(a.jid));
    },
  }),
  // The palette has the meetings' "Meet now ▸ Bob"; this is the conversation header's button.
  meetNow: { listed: 'never', run: 'later' },
  nextUnread: { keys: 'g u', run: 'later' },
  markAllRead: {},
  // Turns the chime for new messages in other conversations off or on (saved for every device).
  chatSound: {},
  setPresence: {
    args: [{ name: 'state', titleKey: 'messaging:args.presence', kind: 'choice', options: () => STATES.map((s) => option(s, i18next.t(`messaging:presence.${s}`), s)) }],
  },
  // Custom status: free text colleagues see next to the name (the user counts as available).
  customStatus: {
    args: [{ name: 'text', titleKey: 'messaging:customStatus.text', kind: 'text', validate: customStatusProblem }],
  },

  // Texts: with a `jid` (a conversation's palette entity) it opens that conversation.
  'texts.go': command({
    titleKey: 'messaging:texts.commands.go',
    keys: 'g x',
    given: { jid: 'string' },
    run: (ctx, a) => go(ctx, a.jid !== undefined ? textPath(a.jid) : TEXTS_PATH),
  }),
  // The conversation on screen (the texts screen's Mute button does the same).
  'texts.toggleMute': { titleKey: 'messaging:texts.commands.toggleMute' },
  'texts.new': { titleKey: 'messaging:texts.commands.new', keys: 'Shift+X', run: (ctx) => go(ctx, `${TEXTS_PATH}/new`) },
  // "Text ▸ number": a conversation's number or any number typed.
  'texts.text': command({
    titleKey: 'messaging:texts.commands.text',
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
  focusInput: { keys: 'Alt+i', run: () => document.getElementById(MESSAGE_INPUT_ID)?.focus() },
  // The open conversation's emoji picker and file chooser (its message box listens; no chunk is loaded for it).
  insertEmoji: { run: () => compose('emoji') },
  attachFile: { run: () => compose('attach') },
} as const satisfies Record<string, CommandRow>;

/**
 * Rows without a run (the engine's work, the chat sound) run in the chat chunk, with its strings.
 * The words the palette finds each by, whether it may run (the connection, the sessions, the texts'
 * numbers) and the runs marked 'later' come with the later part (later.ts).
 */
export const messagingCommands = defineCommands('messaging', messagingTable, {
  when: hasChat,
  lazy: () => chatChunk.load().then((m) => m.runs),
});
