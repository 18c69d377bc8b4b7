import { defineCommands, Navigation, type CommandContext, type CommandRow, type Enablement, type WhenFn } from '../../kernel';
import { wizardState, WIZARD_PATH } from './state';

const partnerAdmin: WhenFn = () => wizardState.available;
const onScreen: WhenFn = (ctx) => ctx.route.startsWith(WIZARD_PATH);

/** Opens the wizard at a step (null: where it is, or where it starts). */
function open(ctx: CommandContext, step: number | null): void {
  if (step !== null) wizardState.step = step;
  void ctx.services.get(Navigation).navigate(WIZARD_PATH);
}

/** Forward from the company step only once a company is confirmed. */
const canGoOn = (): Enablement => (wizardState.step === 1 && !wizardState.info?.confirmed ? { reasonKey: 'wizard:reasons.chooseCompany' } : true);
const notFirst = (): Enablement => ((wizardState.step ?? 0) > 0 ? true : { reasonKey: 'wizard:reasons.firstStep' });

/**
 * Every step is reachable from the palette ("Wizard ▸ Upload users"); on the wizard's screen, "Next
 * step" and "Previous step" move by one, and the organisation's users download as CSV.
 */
export const wizardTable = {
  go: { keywords: ['wizard', 'onboarding', 'configuration', 'setup'], run: (ctx) => open(ctx, null) },
  welcome: { keywords: ['wizard', 'welcome', 'start'], run: (ctx) => open(ctx, 0) },
  company: { keywords: ['wizard', 'company', 'customer', 'services account'], run: (ctx) => open(ctx, 1) },
  upload: { keywords: ['wizard', 'upload', 'import', 'csv', 'users', 'bulk'], run: (ctx) => open(ctx, 2) },
  users: { keywords: ['wizard', 'configure', 'users', 'map', 'services users'], run: (ctx) => open(ctx, 3) },
  next: { listed: 'screen', when: 'screen', keywords: ['wizard', 'next', 'forward'], enabled: canGoOn },
  back: { listed: 'screen', when: 'screen', keywords: ['wizard', 'previous', 'back'], enabled: notFirst },
  downloadCsv: { listed: 'screen', when: 'screen', keywords: ['wizard', 'csv', 'download', 'export', 'users'] },
} as const satisfies Record<string, CommandRow>;

/** The step moves and the download run in the lazy chunk, with the screen's strings. */
export const wizardCommands = defineCommands('wizard', wizardTable, {
  when: partnerAdmin,
  screen: onScreen,
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});
