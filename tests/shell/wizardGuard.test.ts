// @vitest-environment jsdom
import { createMemoryHistory } from '@tanstack/react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { Api, allFeatures, definePlugin, Kernel, Session, type ApiClient, type SessionInfo } from '../../src/kernel';
import { plugins } from '../../src/plugins';
import { wizardPlugin } from '../../src/plugins/wizard';
import { resetWizardState } from '../../src/plugins/wizard/state';
import { buildAppRouter } from '../../src/shell/router';

const home = definePlugin({ id: 'alpha', titleKey: 'alpha:title', routes: [{ id: 'alpha', path: '/alpha', titleKey: 'alpha:title', home: true, component: async () => ({ default: () => null }) }] });

/** The real wizard plugin, signed in as `profile`, the server answering `GET /v1/wizard` with `state`. */
async function landing(profile: { is_reseller_level: boolean; role_id: number }, state: { active: boolean; completed: boolean }) {
  const asked: string[] = [];
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.provide(Session, { userId: 1, profile, config: {} } as unknown as SessionInfo);
  kernel.provide(Api, { get: async (path: string) => (asked.push(path), { ...state, step: 0, resellerId: 7, customerId: null, confirmed: false, hasServiceUser: false }) } as unknown as ApiClient);
  kernel.load([home, wizardPlugin], { complete: true });
  const router = buildAppRouter(kernel, createMemoryHistory({ initialEntries: ['/alpha'] }));
  await router.load();
  await expect.poll(() => router.state.status).toBe('idle');
  return { path: router.state.location.pathname, asked };
}

const partnerAdmin = { is_reseller_level: true, role_id: 2 };

describe('the router guard and the wizard plugin', () => {
  afterEach(() => {
    resetWizardState();
    document.cookie = 'uc-wizard-completed=; Max-Age=0; Path=/';
  });

  it('the product ships the wizard plugin, so the guard has a wizard to ask', () => {
    // The list gives each manifest its strings loader (a copy of the manifest with it), nothing else.
    const shipped = plugins.find((p) => p.id === wizardPlugin.id);
    expect(shipped?.routes).toBe(wizardPlugin.routes);
    expect(shipped?.commands).toBe(wizardPlugin.commands);
  });

  it('sends a partner administrator whose wizard is not finished to /configuration', async () => {
    expect((await landing(partnerAdmin, { active: true, completed: false })).path).toBe('/configuration');
  });

  it('lets a finished one through, and anyone but a reseller partner administrator without asking the server', async () => {
    expect((await landing(partnerAdmin, { active: true, completed: true })).path).toBe('/alpha');
    resetWizardState();
    const customer = await landing({ is_reseller_level: false, role_id: 1 }, { active: true, completed: false });
    expect(customer).toEqual({ path: '/alpha', asked: [] });
    resetWizardState();
    expect((await landing({ is_reseller_level: true, role_id: 3 }, { active: true, completed: false })).path).toBe('/alpha');
  });

  it('for 30 s after finishing, the completed cookie alone lets the user through', async () => {
    document.cookie = 'uc-wizard-completed=1; Max-Age=30; Path=/';
    expect(await landing(partnerAdmin, { active: true, completed: false })).toEqual({ path: '/alpha', asked: [] });
  });
});
