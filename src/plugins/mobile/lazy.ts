import type { LazyRuns } from '../../kernel';
import { newCode } from './api';
import type { mobileTable } from './commands';

export { strings } from './strings';
export { default as MobileScreen } from './ui/MobileScreen';

export const runs: LazyRuns<typeof mobileTable> = {
  newCode: (ctx) => newCode(ctx.services),
};
