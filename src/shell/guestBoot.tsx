import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Link, Outlet, RouterProvider, useMatches, type AnyRoute } from '@tanstack/react-router';
import { lazy, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { Api, Dialogs, GuestVisit, HotkeyManager, Kernel, KernelProvider, Notifications, type PluginManifest } from '../kernel';
import { FEATURE_FLAGS, type FeatureFlags } from '../wire/featureFlags';
import type { GuestJoinResponse } from '../wire/meetings';
import { announcer } from './announcer';
import { AriaLocale } from './AriaLocale';
import { setHotkeyManager } from './hotkeysInstance';
import { i18nLoader } from './i18nSetup';
import { addPluginStrings } from './pluginStrings';
import { Later } from './Later';
import { LiveRegions } from './LiveRegions';
import { ModalHost, dialogHost } from './ModalHost';
import { createNotifier } from './notices';
import { api } from './session';
import './frame.css';

const Toasts = lazy(() => import('./toasts').then((m) => ({ default: m.Toasts })));

/**
 * A plugin as a guest gets it: only its routes marked `guest`, its strings and its commands (the
 * meeting's Ctrl+D, Ctrl+E…) with what its later part says of them (their words, enablement and
 * runs); no provided services, navigation, menus, search or activation, so nothing it would load for
 * a user (lists, contacts, chat) starts with a token that cannot read it.
 */
export function guestPart(p: PluginManifest): PluginManifest | null {
  const routes = (p.routes ?? []).filter((r) => r.guest);
  if (!routes.length) return null;
  const later = p.later;
  return {
    id: p.id,
    titleKey: p.titleKey,
    i18n: p.i18n,
    routes,
    commands: p.commands,
    hotkeys: p.hotkeys,
    ...(later ? { later: () => later().then((part) => ({ commands: part.commands })) } : {}),
  };
}

/** The guest page's landmark and heading (the route's title), around the one screen. */
function GuestFrame() {
  const { t } = useTranslation();
  const matches = useMatches();
  const titleKey = [...matches].reverse().find((m) => m.staticData.titleKey)?.staticData.titleKey;
  return (
    <main className="standalone guest-page">
      {titleKey && <h1>{t(titleKey)}</h1>}
      <Outlet />
    </main>
  );
}

/** Anything but the meeting: a guest sees only the meeting they joined. */
function GuestElsewhere({ meetingPath }: { meetingPath: string }) {
  const { t } = useTranslation('shell');
  return (
    <div className="not-found">
      <p>{t('guest.elsewhere')}</p>
      <Link to={meetingPath} className="btn primary">
        {t('guest.back')}
      </Link>
    </div>
  );
}

/**
 * The guest mode (docs/DECISIONS.md, "Guests"): a kernel holding only the plugins' guest routes,
 * with the guest's token as the API's, a GuestVisit service instead of Session, and no frame.
 */
export async function bootGuest(root: Root, guest: GuestJoinResponse, meetingPath: string, plugins: readonly PluginManifest[]): Promise<void> {
  api.setToken(guest.access_token);
  const notifier = createNotifier(announcer);
  const features = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, false])) as FeatureFlags;
  const kernel = new Kernel({
    features,
    onCommandFailure: ({ titleKey }) => notifier.toast({ titleKey: titleKey ?? 'shell:commandFailed.title', messageKey: 'shell:commandFailed.message', tone: 'error' }),
  });
  kernel.provide(Api, api);
  kernel.provide(Notifications, notifier);
  kernel.provide(Dialogs, dialogHost);
  kernel.provide(GuestVisit, { name: guest.name, guestId: guest.guest_id, meetingId: guest.meeting_id, slug: guest.slug });
  Object.assign(kernel.context, { authenticated: false, route: location.pathname, language: i18nLoader.i18n.language });
  kernel.load(plugins.flatMap((p) => guestPart(p) ?? []));
  addPluginStrings(kernel);
  await i18nLoader.setLanguage(i18nLoader.i18n.language as never);
  setHotkeyManager(new HotkeyManager(kernel));

  const rootRoute = createRootRoute({ component: GuestFrame });
  const routes: AnyRoute[] = kernel.routes.list().map(({ item: r }) =>
    createRoute({ getParentRoute: () => rootRoute, path: r.path, staticData: { titleKey: r.titleKey }, component: r.component ? lazyRouteComponent(r.component) : undefined }) as unknown as AnyRoute,
  );
  const elsewhere = createRoute({ getParentRoute: () => rootRoute, path: '$', staticData: { titleKey: 'shell:guest.elsewhereTitle' }, component: () => <GuestElsewhere meetingPath={meetingPath} /> });
  const router = createRouter({ routeTree: rootRoute.addChildren([...routes, elsewhere]) });
  root.render(
    <StrictMode>
      <KernelProvider kernel={kernel}>
        <AriaLocale>
          <RouterProvider router={router} />
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
