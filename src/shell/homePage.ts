import type { HomePageService, Kernel, PreferencesStore } from '../kernel';

/**
 * The home-page choice (`uc-home-page`): read once at boot, before the router first resolves `/`,
 * so the first screen after sign-in is already the chosen one.
 */
export async function createHomePage(kernel: Kernel, prefs: PreferencesStore): Promise<HomePageService> {
  let chosen: string | null = null;
  const saved = await prefs.get<string>('uc-home-page').catch(() => false as const);
  if (typeof saved === 'string') chosen = saved;
  const service: HomePageService = {
    choices: (context) =>
      kernel.nav
        .list()
        .map((e) => e.item)
        .filter((n) => !n.when || n.when(context))
        .sort((a, b) => a.order - b.order)
        .map((n) => ({ path: n.to, titleKey: n.titleKey })),
    // Only whether the entry exists: a plugin's `when` may not know yet at boot (voicemail learns of the mailbox later).
    path: () => (chosen && kernel.nav.list().some((e) => e.item.to === chosen) ? chosen : kernel.homePath()),
    choose: (path) => void (chosen = path),
  };
  return service;
}
