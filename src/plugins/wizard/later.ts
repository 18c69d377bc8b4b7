import { subscribe } from 'valtio';
import type { Enablement, PluginLater } from '../../kernel';
import type { wizardCommands as Commands } from './commands';
import type { usersWanted as UsersWanted, wizardState as State } from './state';

/**
 * The later part (loaded after the first screen): the words the palette finds each command by, and
 * whether a step move may run, with the reason shown beside it when it may not. It is handed the
 * boot part's table and store rather than importing them: a module that the boot part, the lazy
 * chunk and this part all import becomes a chunk of its own, which cost the first screen more than
 * moving the words saved.
 */
export function laterOf(wizardCommands: typeof Commands, wizardState: typeof State, usersWanted: typeof UsersWanted): PluginLater {
  /** Forward from the company step only once a company is confirmed. */
  const canGoOn = (): Enablement => (wizardState.step === 1 && !wizardState.info?.confirmed ? { reasonKey: 'wizard:reasons.chooseCompany' } : true);
  const notFirst = (): Enablement => ((wizardState.step ?? 0) > 0 ? true : { reasonKey: 'wizard:reasons.firstStep' });
  return {
    commands: wizardCommands.later({
      go: { keywords: ['wizard', 'onboarding', 'configuration', 'setup'] },
      welcome: { keywords: ['wizard', 'welcome', 'start'] },
      company: { keywords: ['wizard', 'company', 'customer', 'services account'] },
      upload: { keywords: ['wizard', 'upload', 'import', 'csv', 'users', 'bulk'] },
      users: { keywords: ['wizard', 'configure', 'users', 'map', 'services users'] },
      next: { keywords: ['wizard', 'next', 'forward'], enabled: canGoOn },
      back: { keywords: ['wizard', 'previous', 'back'], enabled: notFirst },
      downloadCsv: { keywords: ['wizard', 'csv', 'download', 'export', 'users'] },
      // Not 'wizard' or 'password' alone: a keyword followed by a name is a ready row ("set password abby").
      passwordLink: { keywords: ['set password', 'password link', 'invite'] },
    }),
    activate(ctx) {
      // The commands read whether the user is a partner administrator, and the step and confirmation.
      ctx.commandsRead((onChange) => subscribe(wizardState, onChange));
      let loading: Promise<void> | null = null;
      usersWanted.load = () => {
        if (!wizardState.available || loading) return;
        loading = import('./lazy')
          .then((m) => m.loadUsers(ctx.services))
          .catch(() => undefined)
          .finally(() => (loading = null));
      };
      return { dispose: () => void (usersWanted.load = null) };
    },
  };
}
