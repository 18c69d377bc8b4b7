import { Navigation, type LazyRuns } from '../../kernel';
import { moveStep } from '../../wire/wizardSteps';
import { downloadCsv, issuePasswordLink, loadInfo } from './api';
import type { wizardTable } from './commands';
import { WIZARD_PATH, wizardState } from './state';

export { strings } from './strings';
/** For the set-password command's choices, asked away from the configure-users step (later.ts). */
export { loadUsers } from './api';
export { default as WizardScreen } from './ui/WizardScreen';

/** What the screen's commands do (the steps' commands navigate at boot). */
export const runs: LazyRuns<typeof wizardTable> = {
  next: () => {
    wizardState.step = moveStep(wizardState.step ?? 0, 1);
  },
  back: () => {
    wizardState.step = moveStep(wizardState.step ?? 0, -1);
  },
  downloadCsv: async (ctx) => {
    await downloadCsv(ctx.services);
  },
  /** On the configure-users step, whose dialog shows the link (or whose alert says why not). */
  passwordLink: async (ctx, args) => {
    const username = args.username?.trim();
    if (!username) return;
    wizardState.step = 3;
    await ctx.services.get(Navigation).navigate(WIZARD_PATH);
    if (!wizardState.info) await loadInfo(ctx.services);
    await issuePasswordLink(ctx.services, username);
  },
};
