/*
 * Texts (SMS/MMS) in the messaging plugin's manifest: routes, navigation entry with its badge,
 * palette commands and entities, hotkeys. Boot code: small, and nothing here imports the screens,
 * the store or libphonenumber (they come with the messaging chunk).
 */
import { Mail } from 'lucide-react';
import { subscribe, useSnapshot } from 'valtio';
import { Navigation, toDisposable, type CommandContext, type CommandContribution, type ContextSnapshot, type Enablement, type HotkeyContribution, type NavContribution, type RouteContribution, type SearchProvider, type ServiceLookup } from '../../../kernel';
import { displayNumber, texts, TEXTS_PATH, textPath } from './state';

type Lazy = typeof import('../lazy');

const hasTexts = (ctx: ContextSnapshot) => ctx.roleId !== 4;
// Argument titles and reasons are in the lazily loaded strings (texts/strings/), like chat's.
const NS = 'messaging:';
const haveNumber = (): Enablement => (texts.dids.length ? true : { reasonKey: NS + 'texts.reasons.noNumber' });

/** A new text to this number; the screen opens the conversation with it instead when there is one. */
export const textNumber = (services: Pick<ServiceLookup, 'get'>, number: string) => services.get(Navigation).navigate(`${TEXTS_PATH}/new?to=${encodeURIComponent(number)}`);

function useTextsUnread(): number {
  const c = useSnapshot(texts).conversations;
  let n = 0;
  for (const k in c) n += c[k]!.unread;
  return n;
}

/** `message`, `message/new` and `message/{id}` (one screen; `new` is the new-text form, `?to=` prefills it). */
export const textRoutes = (loadLazy: () => Promise<Lazy>): RouteContribution[] => [
  {
    id: 'message',
    path: `${TEXTS_PATH}/{-$id}`,
    titleKey: 'messaging:texts.title',
    component: () => loadLazy().then((m) => ({ default: m.TextsScreen })),
    validateSearch: (s) => (s.to ? { to: String(s.to) } : {}),
  },
];

export const textsNav: NavContribution = {
  id: 'texts',
  titleKey: 'messaging:texts.title',
  to: TEXTS_PATH,
  icon: Mail,
  order: 13,
  command: 'messaging.texts.go',
  when: hasTexts,
  useBadge: useTextsUnread,
  badgeLabelKey: 'messaging:texts.badge',
};

const go = (ctx: CommandContext, to: string) => ctx.services.get(Navigation).navigate(to);

export const textCommands: readonly CommandContribution[] = [
  {
    id: 'messaging.texts.go',
    titleKey: 'messaging:texts.commands.go',
    keywords: ['sms', 'mms', 'texts', 'messages'],
    when: hasTexts,
    run: (ctx, a) => go(ctx, typeof a.jid === 'string' ? textPath(a.jid) : TEXTS_PATH),
  },
  { id: 'messaging.texts.new', titleKey: 'messaging:texts.commands.new', keywords: ['sms', 'mms', 'text', 'write'], when: hasTexts, enabled: haveNumber, run: (ctx) => go(ctx, `${TEXTS_PATH}/new`) },
  {
    // "Text ▸ number": a conversation's number or any number typed.
    id: 'messaging.texts.text',
    titleKey: 'messaging:texts.commands.text',
    keywords: ['sms', 'mms', 'send'],
    when: hasTexts,
    enabled: haveNumber,
    args: [
      {
        name: 'number',
        titleKey: NS + 'texts.args.number',
        kind: 'choice',
        allowFreeText: true,
        validate: (text) => (/^\D*1?(\D*\d){10}\D*$/.test(text) ? null : NS + 'texts.reasons.notUs'),
        options: () =>
          Object.values(texts.conversations)
            .filter((s) => s.kind === 'sms')
            .map((s) => ({ id: s.jid, label: displayNumber(s.members[0]!), keywords: [s.members[0]!], value: s.members[0]! })),
      },
    ],
    run: (ctx, a) => textNumber(ctx.services, String(a.number)),
  },
];

export const textHotkeys: readonly HotkeyContribution[] = [
  { command: 'messaging.texts.go', keys: 'g x' },
  { command: 'messaging.texts.new', keys: 'Shift+X' },
];

/** Every text conversation is a palette entity ("Go to texts ▸ (212) 555-0123"). */
export const textsSearch: SearchProvider = {
  id: 'texts',
  kindKey: 'messaging:texts.kind',
  items: (ctx) =>
    hasTexts(ctx)
      ? Object.values(texts.conversations).map((s) => ({
          id: `texts:${s.jid}`,
          label: s.members.map(displayNumber).join(', '),
          detail: s.members.join(' '),
          actions: [{ command: 'messaging.texts.go', args: { jid: s.jid } }],
        }))
      : [],
  subscribe: (onChange) => {
    let n = 0;
    return toDisposable(subscribe(texts.conversations, () => n !== (n = Object.keys(texts.conversations).length) && onChange()));
  },
};
