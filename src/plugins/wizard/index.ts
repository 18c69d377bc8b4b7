import { definePlugin, provide } from '../../kernel';
import { WizardApi } from '../../contracts';
import { wizardCommands } from './commands';
import { isPartnerAdmin, wizardService } from './service';
import { usersWanted, wizardState, WIZARD_PATH } from './state';

/**
 * The onboarding wizard of reseller partner administrators (`/configuration`): welcome, the company
 * (services account), the bulk CSV upload of users, and mapping them to the services users. The
 * boot part is this manifest, the command table, the state and the router guard's service; the
 * commands' words and enablement are its later part (later.ts); the screen is one lazy chunk.
 */
export const wizardPlugin = definePlugin({
  id: 'wizard',
  titleKey: 'wizard:title',
  i18n: { namespace: 'wizard' },
  provides: [provide(WizardApi, wizardService)],
  routes: [{ id: 'wizard', path: WIZARD_PATH, titleKey: 'wizard:title', component: () => import('./lazy').then(async (m) => (await m.strings(), { default: m.WizardScreen })) }],
  commands: wizardCommands.commands,
  hotkeys: wizardCommands.hotkeys,
  later: () => import('./later').then((m) => m.laterOf(wizardCommands, wizardState, usersWanted)),
  activate(ctx) {
    wizardState.available = isPartnerAdmin(ctx);
  },
});

export default wizardPlugin;
