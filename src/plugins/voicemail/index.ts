import { Voicemail as VoicemailIcon } from 'lucide-react';
import { subscribe, useSnapshot } from 'valtio';
import { definePlugin, Session, toDisposable } from '../../kernel';
import { hasMailbox, voicemailCommands } from './commands';
import { palette, unreadCount, vmState, VOICEMAIL_PATH, type Voicemail } from './state';

/*
 * The boot part of the plugin is this manifest, the command table and the state proxy: everything
 * else (strings, API calls, refresh, the player, the screen, the palette entities) is one lazy
 * chunk, fetched after the first screen has painted. The navigation entry and the commands show
 * once their strings are in.
 */
/** Voicemail: list, player, transcript, read state, delete and download; both API generations. */
export const voicemailPlugin = definePlugin({
  id: 'voicemail',
  titleKey: 'voicemail:title',
  // One route with an optional id (null when deselected): choosing a message keeps the same screen.
  routes: [{ id: 'voicemail', path: `${VOICEMAIL_PATH}/{-$id}`, titleKey: 'voicemail:title', component: () => import('./lazy').then(async (m) => (await m.strings(), { default: m.VoicemailScreen })) }],
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
      command: voicemailCommands.ids.go,
    },
  ],
  commands: voicemailCommands.commands,
  hotkeys: voicemailCommands.hotkeys,
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
    ctx.afterFirstScreen(async (settled) => (await import('./lazy')).start(ctx.services, () => (ctx.setContextKey('mailbox', true), settled()), settled), { settles: true });
  },
});

export default voicemailPlugin;
