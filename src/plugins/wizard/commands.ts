import { defineCommands, Navigation, option, type CommandContext, type CommandRow, type WhenFn } from '../../kernel';
import { usersWanted, wizardState, WIZARD_PATH } from './state';

const partnerAdmin: WhenFn = () => wizardState.available;
const onScreen: WhenFn = (ctx) => ctx.route.startsWith(WIZARD_PATH);

/** Opens the wizard at a step (null: where it is, or where it starts). */
function open(ctx: CommandContext, step: number | null): void {
  if (step !== null) wizardState.step = step;
  void ctx.services.get(Navigation).navigate(WIZARD_PATH);
}

/**
 * Every step is reachable from the palette ("Wizard ▸ Upload users"); on the wizard's screen, "Next
 * step" and "Previous step" move by one, and the organisation's users download as CSV.
 */
export const wizardTable = {
  go: { run: (ctx) => open(ctx, null) },
  welcome: { run: (ctx) => open(ctx, 0) },
  company: { run: (ctx) => open(ctx, 1) },
  upload: { run: (ctx) => open(ctx, 2) },
  users: { run: (ctx) => open(ctx, 3) },
  next: { listed: 'screen', when: 'screen' },
  back: { listed: 'screen', when: 'screen' },
  downloadCsv: { listed: 'screen', when: 'screen' },
  /**
   * A one-time set-password link for a user who cannot sign in yet (imported without a password):
   * the palette offers the organisation's enabled users without one (loaded on the first ask when
   * the configure-users step has not). The link shows in that step's dialog.
   */
  passwordLink: {
    args: [
      {
        name: 'username',
        titleKey: 'wizard:commands.passwordLinkWho',
        kind: 'choice',
        options: () => {
          if (!wizardState.users) usersWanted.load?.();
          return (wizardState.users ?? []).filter((u) => !u.HasPassword && u.Enabled === 'Yes').map((u) => option(u.Username, u.Username, u.Username, `${u.FirstName} ${u.LastName}`));
        },
      },
    ],
  },
} as const satisfies Record<string, CommandRow>;

/**
 * The step moves and the download run in the lazy chunk, with the screen's strings; the words the
 * palette finds each by and whether a step move may run come with the later part (later.ts).
 */
export const wizardCommands = defineCommands('wizard', wizardTable, {
  when: partnerAdmin,
  screen: onScreen,
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});
