import { Api, clientLog, definePlugin, LogStore, Navigation, provide, ServerPush, Session, type ArgOption, type CommandContext, languageNameIn, LANGUAGES, nativeLanguageName, type Language } from '../kernel';
import type { ContactCenterLink } from '../wire/frame';
import { shellState } from './uiState';

export interface ShellPluginDeps {
  setLanguage(lang: Language): Promise<void>;
  /** The user's contact-center links (configuration): the apps menu's entries. */
  contactCenter?: readonly ContactCenterLink[];
}

const openPage = (url: string) => void window.open(url, '_blank', 'noopener,noreferrer');

/** The shell's own commands: shortcuts dialog, language, log out, focus movement. */
export function createShellPlugin(deps: ShellPluginDeps) {
  // "Deutsch — German": found by either name, as the user knows it or as the screen names it.
  const languageOptions = (_query: string, ctx: CommandContext): ArgOption[] =>
    LANGUAGES.map((l) => {
      const native = nativeLanguageName(l);
      const local = languageNameIn(l, ctx.context.language);
      return { id: l, label: local === native ? native : `${native} — ${local}`, detail: l, keywords: [l], value: l };
    });
  const link = (type: ContactCenterLink['type']) => deps.contactCenter?.find((l) => l.type === type);
  return definePlugin({
    id: 'shell',
    titleKey: 'shell:pluginTitle',
    // The client log: lines wait in memory until its chunk (IndexedDB, redaction) loads when idle.
    provides: [provide(LogStore, () => clientLog)],
    activate: (ctx) => {
      ctx.afterFirstScreen(() => clientLog.start(), { idle: true });
      // The frame's checks wait for the first screen, and load then: none of them is what the user came for.
      ctx.afterFirstScreen(async () => {
        const { checkMaintenance, loadAnnouncements, oldClientReason, watchMaintenance } = await import('./frameChecks');
        const api = ctx.services.get(Api);
        const reason = oldClientReason(ctx.services.get(Session).config.client_build);
        if (reason) shellState.oldClient = reason;
        const push = ctx.services.maybe(ServerPush);
        const watching = push ? watchMaintenance(push, api) : undefined;
        // Once at sign-in too: maintenance may have begun while nobody of this user was connected.
        void checkMaintenance(api);
        void loadAnnouncements(api);
        return () => watching?.dispose();
      });
    },
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
        id: 'shell.whatsNew',
        titleKey: 'shell:commands.whatsNew',
        keywords: ['announcement', 'news', 'design', 'changes', 'new features'],
        run: () => {
          shellState.announcement = 'design-changes';
        },
      },
      {
        id: 'shell.reload',
        titleKey: 'shell:commands.reload',
        keywords: ['refresh', 'update', 'new version'],
        run: () => location.reload(),
      },
      // The apps menu: the contact-center pages of a user who has them (type cc: admin and agent; ivr: admin).
      {
        id: 'shell.ccAdmin',
        titleKey: 'shell:commands.ccAdmin',
        keywords: ['contact center', 'call center', 'administration'],
        when: () => Boolean(link('cc')),
        run: () => openPage(link('cc')!.admin_url),
      },
      {
        id: 'shell.ccAgent',
        titleKey: 'shell:commands.ccAgent',
        keywords: ['contact center', 'call center', 'agent'],
        when: () => Boolean(link('cc')?.agent_url),
        run: () => openPage(link('cc')!.agent_url!),
      },
      {
        id: 'shell.ivrAdmin',
        titleKey: 'shell:commands.ivrAdmin',
        keywords: ['ivr', 'auto attendant', 'phone menu', 'administration'],
        when: () => Boolean(link('ivr')),
        run: () => openPage(link('ivr')!.admin_url),
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
      { id: 'shell.menu.ccAdmin', menu: 'appsMenu', command: 'shell.ccAdmin', order: 10 },
      { id: 'shell.menu.ccAgent', menu: 'appsMenu', command: 'shell.ccAgent', order: 11 },
      { id: 'shell.menu.ivrAdmin', menu: 'appsMenu', command: 'shell.ivrAdmin', order: 12 },
      { id: 'shell.menu.whatsNew', menu: 'profileMenu', command: 'shell.whatsNew', order: 85 },
      { id: 'shell.menu.shortcuts', menu: 'profileMenu', command: 'shell.shortcuts', order: 80 },
      { id: 'shell.menu.help', menu: 'profileMenu', command: 'shell.help', order: 90 },
      { id: 'shell.menu.logout', menu: 'profileMenu', command: 'shell.logout', order: 100 },
    ],
  });
}
