import type { LazyRuns } from '../../kernel';
import { moveStep } from '../../wire/wizardSteps';
import { downloadCsv } from './api';
import type { wizardTable } from './commands';
import { wizardState } from './state';

export { strings } from './strings';
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
};
