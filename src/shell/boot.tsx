import { RouterProvider } from '@tanstack/react-router';
import { lazy, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { Analytics, Api, Connections as ConnectionsKey, Dialogs, ServerPush, HomePage, HotkeyManager, Kernel, KernelProvider, Navigation, Notifications, Preferences, Session, type PluginManifest, isLanguage, type Language } from '../kernel';
import { proxy } from 'valtio';
import { HotkeyOverrides, Profile, UccConfig } from '../wire/bootResponses';
import type { UccConfig as UccConfigType } from '../wire/config';
import type { Profile as ProfileType } from '../wire/profile';
import { PaletteHost, palettePlugin } from '../palette';
import { createAnalytics } from './analytics';
import { announcer } from './announcer';
import { createServerPush } from './serverPush';
import { AriaLocale } from './AriaLocale';
import { setHotkeyManager } from './hotkeysInstance';
import { appNavigator, type NavigableRouter } from './navigator';
import { i18nLoader } from './i18nSetup';
import { addPluginStrings } from './pluginStrings';
import { createPreferences } from './preferences';
import { buildAppRouter } from './router';
import { api } from './session';
import { connections } from './services';
import { ModalHost, dialogHost } from './ModalHost';
import { createHomePage } from './homePage';
import { createShellPlugin } from './shellPlugin';
import { Later } from './Later';
import { LiveRegions } from './LiveRegions';
import { createNotifier } from './notices';
import './frame.css';

// The guest mode shares this chunk's modules (kernel, notices, dialogs) rather than splitting them into chunks of their own.
export { bootGuest } from './guestBoot';

// The toasts' region (a landmark) is not part of the first screen: it loads as the frame mounts. A
// notice raised before it is drawn waits in the queue (notices.ts).
const Toasts = lazy(() => import('./toasts').then((m) => ({ default: m.Toasts })));

export interface LoadedSession {
  userId: number;
  profile: ProfileType;
  config: UccConfigType;
}

/** The signed-in user's profile and configuration as the server sent them, checked (throws if not as agreed). */
export function checkSession(userId: number, profile: unknown, config: unknown): LoadedSession {
  return { userId, profile: Profile.parse(profile), config: UccConfig.parse(config) };
}

/** The app of a signed-in user (start.tsx has found the session): the kernel, every plugin and the frame. */
export async function boot(root: Root, session: LoadedSession, plugins: readonly PluginManifest[]): Promise<void> {
  const { kernel } = await startKernel(session, plugins);
  const router = buildAppRouter(kernel);
  kernel.provide(Navigation, appNavigator(router as unknown as NavigableRouter));
  const hotkeys = new HotkeyManager(kernel);
  setHotkeyManager(hotkeys);
  const prefs = kernel.get(Preferences);
  void prefs
    .get<unknown>('uc-hotkeys')
    .then((v) => {
      const parsed = HotkeyOverrides.safeParse(v);
      if (parsed.success) hotkeys.setOverrides(parsed.data);
    })
    .catch((err: unknown) => console.error('hotkey preferences', err));
  root.render(
    <StrictMode>
        <KernelProvider kernel={kernel}>
          <AriaLocale>
            <RouterProvider router={router} />
            <PaletteHost hotkeys={hotkeys} />
            <ModalHost />
            <Later>
              <Toasts />
            </Later>
            <LiveRegions announcer={announcer} />
          </AriaLocale>
        </KernelProvider>
    </StrictMode>,
  );
}

async function startKernel(session: LoadedSession, plugins: readonly PluginManifest[]) {
  const notifier = createNotifier(announcer);
  // A command that failed without telling the user why gets one notice: its own title, and that it
  // did not work (an unknown command id: the generic title).
  const kernel = new Kernel({
    features: session.config.features,
    onCommandFailure: ({ titleKey }) => notifier.toast({ titleKey: titleKey ?? 'shell:commandFailed.title', messageKey: 'shell:commandFailed.message', tone: 'error' }),
  });
  const prefs = createPreferences(api);
  const setLanguage = async (lang: Language) => {
    await i18nLoader.setLanguage(lang);
    kernel.context.language = lang;
    await prefs.set('uc-language', lang).catch((err: unknown) => console.error('language preference', err));
  };
  kernel.provide(Api, api);
  kernel.provide(Notifications, notifier);
  kernel.provide(Preferences, prefs);
  kernel.provide(ConnectionsKey, connections);
  kernel.provide(Dialogs, dialogHost);
  kernel.provide(ServerPush, createServerPush());
  const analytics = createAnalytics(api);
  kernel.provide(Analytics, analytics);
  // Palette commands are counted by id only: never their arguments.
  kernel.onRun((id, source) => source === 'palette' && analytics.track(`command:${id}`));
  const profile = proxy(session.profile);
  kernel.provide(Session, {
    userId: session.userId,
    profile,
    config: session.config,
    async refreshProfile() {
      Object.assign(profile, await api.get(`/v1/users/${session.userId}`, undefined, Profile));
    },
    logout: () => location.assign('/logout'),
  });
  Object.assign(kernel.context, {
    authenticated: true,
    userId: session.userId,
    roleId: session.profile.role_id,
    route: location.pathname,
  });
  kernel.load([createShellPlugin({ setLanguage, contactCenter: session.config.contact_center }), palettePlugin, ...plugins], { complete: true });
  // Fetched alongside the language: `/` needs it before the router first resolves.
  const homePage = createHomePage(kernel, prefs);
  addPluginStrings(kernel);
  // The language saved on the server wins over this browser's last choice.
  const saved = await prefs.get<string>('uc-language').catch(() => false as const);
  const lang = isLanguage(saved) ? saved : (i18nLoader.i18n.language as Language);
  await i18nLoader.setLanguage(isLanguage(lang) ? lang : 'en');
  kernel.context.language = i18nLoader.i18n.language;
  i18nLoader.i18n.on('languageChanged', (l) => (kernel.context.language = l));
  kernel.provide(HomePage, await homePage);
  return { kernel };
}
