import i18next from 'i18next';
import { ref } from 'valtio';
import { Notifications, Session, type LazyRuns, type PaletteEntity, type ServiceLookup } from '../../kernel';
import { adoptSavedTheme, loadFindMe, saveFindMe, saveHomePage, saveTheme } from './api';
import type { preferencesTable } from './commands';
import { log } from './log';
import { panelsFor, panelTitleKey } from './model';
import { keepProfileFresh } from './profileSync';
import { saveFailure } from './routing';
import { palette, resetPreferencesState } from './state';
import { strings } from './strings';
import { PANELS } from './ui/registry';

export { strings } from './strings';
export { default as PreferencesScreen } from './ui/PreferencesScreen';

/** "Preferences ▸ General": one entity per panel the user has; Enter opens it. */
function rebuildEntities(services: ServiceLookup): void {
  const title = i18next.t('preferences:title');
  palette.entities = ref(
    panelsFor(PANELS, services.get(Session)).map(
      (p): PaletteEntity => ({
        id: `preferences:${p.id}`,
        label: { key: 'preferences:entity', values: { title, panel: i18next.t(panelTitleKey(p.id)) } },
        keywords: ['settings'],
        actions: [{ command: 'preferences.show', args: { id: p.id } }],
      }),
    ),
  );
}

/**
 * The palette's panel entities, the theme saved on the server, and the signed-in user's profile kept
 * fresh app-wide (the account menu shows it too); `settled` once the strings are in.
 */
export function start(services: ServiceLookup, settled: () => void): () => void {
  const onLanguage = () => rebuildEntities(services);
  const stopProfile = keepProfileFresh(services);
  void strings().then(() => (rebuildEntities(services), settled()), settled);
  i18next.on('languageChanged', onLanguage);
  adoptSavedTheme(services).catch((err: unknown) => log.warn('saved theme', err));
  return () => {
    stopProfile();
    i18next.off('languageChanged', onLanguage);
    resetPreferencesState();
  };
}

const saved = (services: ServiceLookup) => services.get(Notifications).toast({ titleKey: 'preferences:saved', tone: 'success' });

/** The settings commands save as the General panel does. */
export const runs: LazyRuns<typeof preferencesTable> = {
  changeHomePage: async (ctx, args) => {
    if (!args.path) return;
    await saveHomePage(ctx.services, args.path);
    saved(ctx.services);
  },
  changeTheme: async (ctx, args) => {
    if (!args.theme) return;
    await saveTheme(ctx.services, args.theme);
    saved(ctx.services);
  },
  // Only the strategy changes: the rest of find-me is saved back as the server holds it.
  setFindMeStrategy: async (ctx, args) => {
    if (!args.strategy) return;
    const notify = ctx.services.get(Notifications);
    try {
      const now = await loadFindMe(ctx.services);
      if (now.ring_strategy !== args.strategy) await saveFindMe(ctx.services, { ...now, ring_strategy: args.strategy });
      saved(ctx.services);
    } catch (err) {
      log.error('saving the find-me strategy', err);
      const f = saveFailure(err);
      notify.toast(
        f.kind === 'notAuthorized'
          ? { tone: 'error', titleKey: 'preferences:calling.notAuthorized', messageKey: 'preferences:calling.contactAdmin' }
          : { tone: 'error', titleKey: 'preferences:calling.saveFailed', ...(f.message ? { message: f.message } : { messageKey: 'preferences:calling.tryAgain' }) },
      );
    }
  },
};
