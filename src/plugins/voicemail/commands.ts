import { defineCommands, Navigation, type CommandRow, type WhenFn } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { vmState, VOICEMAIL_PATH } from './state';

export const hasMailbox: WhenFn = (ctx) => ctx.keys['voicemail.mailbox'] === true;
const onScreen: WhenFn = (ctx) => hasMailbox(ctx) && ctx.route.startsWith(VOICEMAIL_PATH);
const loaded = () => (vmState.items ? true : { reasonKey: 'voicemail:reasons.loading' });
/** A message's id (an entity's action, a button); without it the command acts on the message shown. */
const message = { id: 'string' } as const;

/*
 * The commands that act on one message ("Delete", "Call back") are listed by the palette only on
 * the voicemail screen, where the message they act on is the one in view: from another screen
 * "Delete" would delete a message the user is not looking at, and "Call back" would stand beside
 * history's. Elsewhere they are a message's actions (palette ▸ message ▸ Tab).
 */
export const voicemailTable = {
  go: { keys: 'g v', run: (ctx) => ctx.services.get(Navigation).navigate(VOICEMAIL_PATH) },
  open: { listed: 'never', given: message },
  playPause: { keys: 'p', scope: 'screen', enabled: loaded, given: message },
  toggleRead: { keys: 'r', scope: 'screen', listed: 'screen', enabled: loaded, given: message },
  markAllRead: { keys: 'Shift+R', scope: 'screen', enabled: loaded },
  delete: { keys: 'Delete', scope: 'screen', listed: 'screen', enabled: loaded, given: message },
  download: { keys: 'Shift+D', scope: 'screen', listed: 'screen', enabled: loaded, given: message },
  callBack: {
    keys: 'c',
    scope: 'screen',
    listed: 'screen',
    given: message,
    enabled: (ctx) => (ctx.services.has(TelephonyApi) ? loaded() : { reasonKey: 'voicemail:reasons.noTelephony' }),
  },
  next: { keys: 'j', scope: 'screen', when: 'screen' },
  previous: { keys: 'k', scope: 'screen', when: 'screen' },
} as const satisfies Record<string, CommandRow>;

/** The rows' work (all but `go`) is in the lazy chunk, with the screen's strings. */
export const voicemailCommands = defineCommands('voicemail', voicemailTable, {
  when: hasMailbox,
  screen: onScreen,
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});
