import { Link, Outlet, useMatches, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { formatBinding, Session, useContextSnapshot, useKernel, useRegistry, useService, type NavContribution } from '../kernel';
import { openPalette } from '../palette';
import { ConnectionBanner } from './ConnectionBanner';
import { hotkeyManager } from './hotkeysInstance';
import { shellState } from './uiState';

// Opened only by "?" or its command: not part of the first screen's JavaScript.
const ShortcutsDialog = lazy(() => import('./ShortcutsDialog').then((m) => ({ default: m.ShortcutsDialog })));

/*
 * The menus (and the popover positioning they bring) are not needed to paint the first screen: they
 * load right after it, as the frame mounts, and their buttons appear then (~2 kB gzip off boot).
 */
const CommandMenu = lazy(() => import('./FrameMenus').then((m) => ({ default: m.CommandMenu })));
const ProfileMenu = lazy(() => import('./FrameMenus').then((m) => ({ default: m.ProfileMenu })));

// The old-client modal and the feature announcement: loaded only when one is due.
const FrameNotices = lazy(() => import('./FrameNotices').then((m) => ({ default: m.FrameNotices })));

function LazyFrameNotices() {
  const { oldClient, announcement } = useSnapshot(shellState);
  return oldClient || announcement ? (
    <Suspense fallback={null}>
      <FrameNotices />
    </Suspense>
  ) : null;
}

function LazyShortcuts() {
  const { shortcutsOpen } = useSnapshot(shellState);
  return shortcutsOpen ? (
    <Suspense fallback={null}>
      <ShortcutsDialog />
    </Suspense>
  ) : null;
}

export function formatBadge(count: number): string {
  return count > 99 ? '99+' : String(count);
}

function NavBadge({ item }: { item: NavContribution }) {
  const { t } = useTranslation();
  const count = item.useBadge!();
  useEffect(() => {
    shellState.unread[item.id] = count;
    return () => {
      delete shellState.unread[item.id];
    };
  }, [item.id, count]);
  if (count <= 0) return null;
  return (
    <span className="badge" aria-label={item.badgeLabelKey ? t(item.badgeLabelKey, { count }) : String(count)}>
      <span aria-hidden="true">{formatBadge(count)}</span>
    </span>
  );
}

function NavRail() {
  const kernel = useKernel();
  const { t } = useTranslation();
  const context = useContextSnapshot();
  const items = useRegistry(kernel.nav)
    .map((o) => o.item)
    .filter((n) => !n.when || n.when(context))
    .sort((a, b) => a.order - b.order);
  return (
    <nav id="main-nav" className="nav-rail" aria-label={t('shell:nav.label')}>
      <ul>
        {items.map((n) => (
          <li key={n.id}>
            <Link to={n.to} className="nav-item" data-nav={n.id} activeProps={{ 'aria-current': 'page', className: 'nav-item active' }}>
              <n.icon className="nav-icon" size={22} strokeWidth={1.75} aria-hidden="true" focusable="false" />
              <span className="nav-label">{t(n.titleKey)}</span>
              {n.useBadge && <NavBadge item={n} />}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function useScreenTitleKey(): string {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const key = matches[i]!.staticData?.titleKey;
    if (key) return key;
  }
  return 'shell:productName';
}

function DocumentTitle({ screenTitle }: { screenTitle: string }) {
  const { unread } = useSnapshot(shellState);
  const session = useService(Session);
  const total = Object.values(unread).reduce((a, b) => a + b, 0);
  useEffect(() => {
    const product = session.config.branding.product_name;
    document.title = `${total > 0 ? `(${formatBadge(total)}) ` : ''}${screenTitle} – ${product}`;
  }, [total, screenTitle, session.config.branding.product_name]);
  return null;
}

function Slot({ slot }: { slot: 'callDock' | 'brand' }) {
  const kernel = useKernel();
  const context = useContextSnapshot();
  const panels = useRegistry(kernel.panels)
    .map((o) => o.item)
    .filter((p) => p.slot === slot && (!p.when || p.when(context)))
    .sort((a, b) => (a.order ?? 50) - (b.order ?? 50));
  if (panels.length === 0) return null;
  return (
    <>
      {panels.map((P) => (
        <P.component key={P.id} />
      ))}
    </>
  );
}

function PaletteButton() {
  const { t } = useTranslation('shell');
  const manager = hotkeyManager();
  useSyncExternalStore(manager.subscribe, manager.getVersion);
  const binding = manager
    .effective()
    .find((e) => e.hotkey.command === 'palette.open')?.keys;
  return (
    <Button className="search-btn" onPress={() => openPalette()} aria-keyshortcuts={binding ? formatBinding(binding).replace(/Ctrl/g, 'Control') : undefined}>
      <span aria-hidden="true">⌕</span> {t('searchOrRun')}
      {binding && <kbd aria-hidden="true">{formatBinding(binding)}</kbd>}
    </Button>
  );
}

export function AppFrame() {
  const { t } = useTranslation();
  const titleKey = useScreenTitleKey();
  const screenTitle = t(titleKey);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const heading = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  const kernel = useKernel();
  const session = useService(Session);

  useEffect(() => {
    kernel.context.route = pathname;
  }, [pathname, kernel]);
  // Focus follows navigation to a new screen's heading, except on the very first load. Choosing an
  // item within a screen (`/voicemail/12` → `/voicemail/13`, same area and title) is not a new screen.
  const screenKey = `${pathname.split('/')[1] ?? ''}|${titleKey}`;
  useEffect(() => {
    if (firstRender.current) firstRender.current = false;
    else heading.current?.focus({ preventScroll: true });
  }, [screenKey]);

  const brand = useMemo(() => session.config.branding, [session]);

  return (
    <div className="frame" style={{ ['--accent' as string]: undefined }}>
      <a href="#main-heading" className="skip-link">
        {t('shell:skipToContent')}
      </a>
      <ConnectionBanner />
      <header className="topbar">
        <span className="brand">
          <Slot slot="brand" />
          {brand.product_name}
        </span>
        <PaletteButton />
        <div className="topbar-end">
          <Suspense fallback={null}>
            <CommandMenu menu="plusMenu" label={t('shell:plusMenu')} glyph="+" />
            <CommandMenu menu="appsMenu" label={t('shell:appsMenu')} glyph="⋮⋮" />
          </Suspense>
        </div>
      </header>
      <div className="body">
        <aside className="rail">
          <NavRail />
          <div className="rail-end">
            <Suspense fallback={null}>
              <ProfileMenu />
            </Suspense>
          </div>
        </aside>
        <main className="main" aria-labelledby="main-heading">
          <Slot slot="callDock" />
          <h1 id="main-heading" ref={heading} tabIndex={-1} className="screen-title">
            {screenTitle}
          </h1>
          <div className="screen">
            <Outlet />
          </div>
        </main>
      </div>
      <DocumentTitle screenTitle={screenTitle} />
      <LazyShortcuts />
      <LazyFrameNotices />
    </div>
  );
}
