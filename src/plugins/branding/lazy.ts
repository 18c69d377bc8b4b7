import { Dialogs, type LazyRuns } from '../../kernel';
import { removeLogo } from './api';
import type { brandingTable } from './commands';
import { brandingState } from './state';

export { strings } from './strings';
export { default as LogoDialog } from './ui/LogoDialog';

export const runs: LazyRuns<typeof brandingTable> = {
  upload: () => {
    brandingState.dialogOpen = true;
  },
  remove: async (ctx) => {
    const { confirmed } = await ctx.services.get(Dialogs).confirm({ titleKey: 'branding:remove.title', messageKey: 'branding:remove.message', confirmLabelKey: 'branding:remove.confirm', tone: 'danger' });
    if (confirmed) await removeLogo(ctx.services);
  },
};
