import { Api, Session, type PluginContext } from '../../kernel';
import type { WizardService } from '../../contracts';
import { canEditUsers } from '../../wire/roles';
import type { WizardState } from '../../wire/wizard';
import { log } from './log';
import { hasCompletedCookie } from './model';
import { wizardState } from './state';

let asking: Promise<void> | null = null;

/**
 * The router's guard (src/shell/router.tsx) asks at each navigation: a reseller partner administrator
 * whose wizard is not finished goes to /configuration. Asked of the server once; the answer is kept
 * (the lazy chunk updates it), and for 30 s after finishing the cookie alone answers. Unparsed here:
 * the schema (zod) stays out of the boot chunk, and only two booleans are read.
 */
export const wizardService = (ctx: PluginContext): WizardService => ({
  async isRequired() {
    wizardState.available ||= isPartnerAdmin(ctx);
    if (!wizardState.available || hasCompletedCookie(document.cookie)) return false;
    asking ??= ctx.services
      .get(Api)
      .get<WizardState>('/v1/wizard')
      .then((info) => void (wizardState.info ??= info))
      .catch((err: unknown) => log.error('wizard state failed', err))
      .finally(() => (asking = null));
    if (!wizardState.info) await asking;
    const info = wizardState.info;
    return info?.active === true && info.completed === false;
  },
});

/** Reseller level (the user's level is the organisation's reseller level) and an owner or administrator. */
export function isPartnerAdmin(ctx: Pick<PluginContext, 'services'>): boolean {
  const profile = ctx.services.maybe(Session)?.profile;
  return !!profile && profile.is_reseller_level && canEditUsers(profile.role_id);
}
