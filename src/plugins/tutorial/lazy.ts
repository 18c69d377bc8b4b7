import type { LazyRuns, ServiceLookup } from '../../kernel';
import { tourCompleted } from './api';
import type { tutorialTable } from './commands';
import { tutorialState } from './state';

export { strings } from './strings';
export { default as Tour } from './ui/Tour';

/** After sign-in: the tour, unless the user has finished or ended it before. */
export async function startIfNew(services: ServiceLookup): Promise<void> {
  if (!(await tourCompleted(services))) tutorialState.step ??= 0;
}

export const runs: LazyRuns<typeof tutorialTable> = {
  show: () => {
    tutorialState.step = 0;
  },
};
