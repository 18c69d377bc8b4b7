import { Voicemail as VoicemailIcon } from 'lucide-react';
import { subscribe, useSnapshot } from 'valtio';
import { definePlugin, Session, toDisposable, type CommandContribution, type WhenFn } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { palette, unreadCount, vmState, VOICEMAIL_PATH, type Voicemail } from './state';

/*
 * The boot part of the plugin is this manifest and the state proxy: everything else (strings, API
 * calls, refresh, the player, the screen, the palette entities) is one lazy chunk, fetched after the
 * first screen has painted. The navigation entry and the commands show once their strings are in.
 */
const lazy = () => import('./lazy');

const hasMailbox: WhenFn = (ctx) => ctx.keys['voicemail.mailbox'] === true;
const onScreen: WhenFn = (ctx) => hasMailbox(ctx) && ctx.route.startsWith(VOICEMAIL_PATH);
const loaded = () => (vmState.items ? true : { reasonKey: 'voicemail:reasons.loading' });

/**
 * name, hotkey on the screen, needs loaded messages, where: 1 only on the screen; 2 acts on the
 * selected message, so the palette lists it only on the screen, where the selection can be seen
 * ("Delete" from another screen would delete a message the user is not looking at, and "Call back"
 * would stand beside history's); elsewhere it is one of a message's actions (palette ▸ message ▸ Tab).
 */
const COMMANDS: ReadonlyArray<[name: string, keys?: string, needsItems?: 0 | 1, where?: 0 | 1 | 2]> = [
  ['go', 'g v'],
  ['open'],
  ['playPause', 'p', 1],
  ['toggleRead', 'r', 1, 2],
  ['markAllRead', 'Shift+R', 1],
  ['delete', 'Delete', 1, 2],
  ['download', 'Shift+D', 1, 2],
  ['callBack', 'c', 1, 2],
  ['next', 'j', 0, 1],
  ['previous', 'k', 0, 1],
];

const commands: CommandContribution[] = COMMANDS.map(([name, , needsItems, where]) => ({
  id: `voicemail.${name}`,
  titleKey: `voicemail:commands.${name}`,
  hiddenInPalette: name === 'open' ? true : where === 2 ? (ctx) => !onScreen(ctx) : false,
  when: where === 1 ? onScreen : hasMailbox,
  enabled:
    name === 'callBack'
      ? (ctx) => (ctx.services.has(TelephonyApi) ? loaded() : { reasonKey: 'voicemail:reasons.noTelephony' })
      : needsItems
        ? loaded
        : undefined,
  run: async (ctx, args) => (await lazy()).run(name, ctx, args),
}));

/** Voicemail: list, player, transcript, read state, delete and download; both API generations. */
export const voicemailPlugin = definePlugin({
  id: 'voicemail',
  titleKey: 'voicemail:title',
  // One route with an optional id (null when deselected): choosing a message keeps the same screen.
  routes: [{ id: 'voicemail', path: `${VOICEMAIL_PATH}/{-$id}`, titleKey: 'voicemail:title', component: () => lazy().then(async (m) => (await m.strings(), { default: m.VoicemailScreen })) }],
  nav: [
    {
      id: 'voicemail',
      titleKey: 'voicemail:title',
      to: VOICEMAIL_PATH,
      icon: VoicemailIcon,
      order: 15,
      when: hasMailbox,
      useBadge: () => unreadCount(useSnapshot(vmState).items as Voicemail[] | null),
      badgeLabelKey: 'voicemail:badge',
      command: 'voicemail.go',
    },
  ],
  commands,
  hotkeys: COMMANDS.map(([name, keys], i) => (i ? { command: `voicemail.${name}`, keys: keys!, scope: 'voicemail', when: onScreen } : { command: 'voicemail.go', keys: keys! })).filter(
    (h) => h.keys,
  ),
  searchProviders: [
    {
      id: 'voicemail',
      kindKey: 'voicemail:title',
      items: () => palette.entities,
      subscribe: (onChange) => toDisposable(subscribe(palette, onChange)),
    },
  ],
  activate(ctx) {
    if (!ctx.services.get(Session).config.mailbox_number) return;
    // The commands read whether the list is loaded and which messages are selected or ticked.
    ctx.commandsRead((onChange) => subscribe(vmState, onChange));
    vmState.generation = ctx.features.voicemail2 ? 2 : 1;
    // The entry and the commands appear with their strings (`strings/`, no boot locale: see DECISIONS).
    // Until then a "g v" pressed is held by the kernel, not dropped.
    ctx.afterFirstScreen(async (settled) => (await lazy()).start(ctx.services, () => (ctx.setContextKey('mailbox', true), settled()), settled), { settles: true });
  },
});

export default voicemailPlugin;
