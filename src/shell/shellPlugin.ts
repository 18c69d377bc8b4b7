import { clientLog, definePlugin, LogStore, Navigation, provide, Session, type ArgOption, type CommandContext, languageNameIn, LANGUAGES, nativeLanguageName, type Language } from '../kernel';
import { shellState } from './uiState';

export interface ShellPluginDeps {
  setLanguage(lang: Language): Promise<void>;
}

/** The shell's own commands: shortcuts dialog, language, log out, focus movement. */
export function createShellPlugin(deps: ShellPluginDeps) {
  // "Deutsch — German": found by either name, as the user knows it or as the screen names it.
  const languageOptions = (_query: string, ctx: CommandContext): ArgOption[] =>
    LANGUAGES.map((l) => {
      const native = nativeLanguageName(l);
      const local = languageNameIn(l, ctx.context.language);
      return { id: l, label: local === native ? native : `${native} — ${local}`, detail: l, keywords: [l], value: l };
    });
  return definePlugin({
    id: 'shell',
    titleKey: 'shell:pluginTitle',
    // The client log: lines wait in memory until its chunk (IndexedDB, redaction) loads when idle.
    provides: [provide(LogStore, () => clientLog)],
    activate: (ctx) => ctx.afterFirstScreen(() => clientLog.start(), { idle: true }),
    i18n: { namespace: 'shell', load: (lng) => import(`./locales/${lng}.json`).then((m: { default: Record<string, unknown> }) => m.default) },
    commands: [
      {
        id: 'shell.shortcuts',
        titleKey: 'shell:commands.shortcuts',
        keywords: ['keyboard', 'hotkeys', 'keys', 'remap'],
        run: () => {
          shellState.shortcutsOpen = true;
        },
      },
      {
        id: 'shell.language',
        titleKey: 'shell:commands.language',
        keywords: ['language', 'locale', 'translate'],
        args: [{ name: 'language', titleKey: 'shell:commands.chooseLanguage', kind: 'choice', options: languageOptions }],
        run: async (_ctx, args) => {
          const lang = args.language as Language;
          await deps.setLanguage(lang);
        },
      },
      {
        id: 'shell.logout',
        titleKey: 'shell:commands.logout',
        keywords: ['sign out', 'exit'],
        run: (ctx) => ctx.services.get(Session).logout(),
      },
      {
        // Reseller-level and customer-level users have different help sites (the server's help_url).
        id: 'shell.help',
        titleKey: 'shell:commands.help',
        keywords: ['support', 'documentation', 'manual', 'faq'],
        run: (ctx) => void window.open(ctx.services.get(Session).config.help_url, '_blank', 'noopener,noreferrer'),
      },
      {
        id: 'shell.goHome',
        titleKey: 'shell:commands.goHome',
        run: (ctx) => ctx.services.get(Navigation).navigate('/'),
      },
      {
        id: 'shell.focusNavigation',
        titleKey: 'shell:commands.focusNavigation',
        run: () => document.querySelector<HTMLElement>('#main-nav a')?.focus(),
      },
      {
        id: 'shell.focusMain',
        titleKey: 'shell:commands.focusMain',
        run: () => document.querySelector<HTMLElement>('#main-heading')?.focus(),
      },
    ],
    hotkeys: [
      { command: 'shell.shortcuts', keys: 'Shift+?' },
      { command: 'shell.focusNavigation', keys: 'Alt+n' },
      { command: 'shell.focusMain', keys: 'Alt+m' },
    ],
    menus: [
      { id: 'shell.menu.shortcuts', menu: 'profileMenu', command: 'shell.shortcuts', order: 80 },
      { id: 'shell.menu.help', menu: 'profileMenu', command: 'shell.help', order: 90 },
      { id: 'shell.menu.logout', menu: 'profileMenu', command: 'shell.logout', order: 100 },
    ],
  });
}
