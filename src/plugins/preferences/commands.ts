import i18next from 'i18next';
import { command, defineCommands, HomePage, Navigation, option, type CommandContext, type CommandRow, type WhenFn } from '../../kernel';
import { RING_STRATEGIES } from '../../wire/ringStrategies';
import { ROLE } from '../../wire/roles';
import { PREFERENCES_PATH, THEMES, type CallingTab, type PanelId } from './state';

const goTo = (ctx: CommandContext, panel?: string) => ctx.services.get(Navigation).navigate(PREFERENCES_PATH, panel ? { search: { panel } } : undefined);

/** The screens the user may choose as home: the navigation entries they reach, named as the rail names them. */
const homeOptions = (_q: string, ctx: CommandContext) => (ctx.services.maybe(HomePage)?.choices(ctx.context) ?? []).map((c) => option(c.path, i18next.t(c.titleKey), c.path));
const goToCalling = (ctx: CommandContext, tab: CallingTab) => ctx.services.get(Navigation).navigate(PREFERENCES_PATH, { search: { panel: 'calling', tab } });
// Limited-access users may neither view nor change the calling rules (the server refuses both).
const mayRoute: WhenFn = (ctx) => ctx.roleId !== ROLE.LIMITED_ACCESS;
const strategyOptions = () => RING_STRATEGIES.map((s) => option(s, i18next.t(`preferences:findMeStrategies.${s}`), s));
const themeOptions = () => THEMES.map((t) => option(t, i18next.t(`preferences:themes.${t}`), t));

/*
 * Going to the preferences and opening a panel navigate at boot; the settings commands save
 * through the lazy chunk, as the General panel does. The words the palette finds each by come with
 * the later part (later.ts).
 */
export const preferencesTable = {
  // Ctrl+, (⌘, on a Mac) is where desktop applications keep their preferences; nothing else uses it.
  go: { keys: '$mod+,', run: (ctx) => goTo(ctx) },
  // "Open a preferences panel ▸ Audio"; an entity's id is `preferences:<panel>`.
  open: command({
    args: [{ name: 'panel', titleKey: 'preferences:commands.choosePanel', kind: 'choice', provider: 'preferences' }],
    run: (ctx, args) => goTo(ctx, args.panel?.id.slice('preferences:'.length) as PanelId | undefined),
  }),
  // The panel entities' action: the panel is given, so the palette asks nothing.
  show: command({ listed: 'never', given: { id: 'string' }, run: (ctx, args) => goTo(ctx, args.id) }),
  changeHomePage: { args: [{ name: 'path', titleKey: 'preferences:commands.chooseHomePage', kind: 'choice', options: homeOptions }] },
  changeTheme: { args: [{ name: 'theme', titleKey: 'preferences:commands.chooseTheme', kind: 'choice', options: themeOptions }] },
  openInboundRoutes: { when: mayRoute, run: (ctx) => goToCalling(ctx, 'inbound-dialing') },
  openFindMe: { when: mayRoute, run: (ctx) => goToCalling(ctx, 'find-me') },
  setFindMeStrategy: {
    when: mayRoute,
    args: [{ name: 'strategy', titleKey: 'preferences:commands.chooseFindMeStrategy', kind: 'choice', options: strategyOptions }],
  },
} as const satisfies Record<string, CommandRow>;

export const preferencesCommands = defineCommands('preferences', preferencesTable, {
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});
