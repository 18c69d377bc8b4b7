import { Link, Outlet, useMatches, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useMemo, useRef, useSyncExternalStore, type ReactElement } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover, Separator, SubmenuTrigger } from 'react-aria-components';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { formatBinding, Session, useContextSnapshot, useKernel, useRegistry, useService, type MenuId, type NavContribution } from '../kernel';
import { LANGUAGES, nativeLanguageName } from '../kernel/i18n';
import { openPalette } from '../palette';
import { ConnectionBanner } from './ConnectionBanner';
import { hotkeyManager } from './hotkeysInstance';
import { shellState } from './uiState';

// Opened only by "?" or its command: not part of the first screen's JavaScript.
const ShortcutsDialog = lazy(() => import('./ShortcutsDialog').then((m) => ({ default: m.ShortcutsDialog })));

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
            <Link to={n.to} className="nav-item" activeProps={{ 'aria-current': 'page', className: 'nav-item active' }}>
              <span className={`nav-icon icon-${n.icon}`} aria-hidden="true" />
              <span className="nav-label">{t(n.titleKey)}</span>
              {n.useBadge && <NavBadge item={n} />}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function useMenuItems(menu: MenuId) {
  const kernel = useKernel();
  const context = useContextSnapshot();
  return useRegistry(kernel.menus)
    .map((o) => o.item)
    .filter((m) => m.menu === menu)
    .sort((a, b) => (a.order ?? 50) - (b.order ?? 50))
    .flatMap((m) => {
      const cmd = kernel.commands.get(m.command)?.item;
      if (!cmd || !kernel.isVisible(cmd, context)) return [];
      const enabled = kernel.enablement(cmd, kernel.commandContext('menu', context)) === true;
      // A command that asks for something ("Set status ▸ …") opens the palette at its first question.
      return [{ id: m.id, titleKey: cmd.titleKey, enabled, run: () => (cmd.args?.length ? openPalette(cmd.id) : void kernel.run(cmd.id, {}, 'menu')) }];
    });
}

/** Apps and plus menus list what plugins contribute; with nothing contributed there is no button. */
function CommandMenu({ menu, label, glyph }: { menu: MenuId; label: string; glyph: string }) {
  const { t } = useTranslation();
  const items = useMenuItems(menu);
  if (items.length === 0) return null;
  return (
    <MenuTrigger>
      <Button className="btn icon top-btn" aria-label={label}>
        <span aria-hidden="true">{glyph}</span>
      </Button>
      <Popover className="popover" placement="bottom end">
        <Menu className="menu" aria-label={label}>
          {contributedItems(items, t)}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

function ProfileMenu() {
  const session = useService(Session);
  const kernel = useKernel();
  const { t, i18n } = useTranslation('shell');
  const items = useMenuItems('profileMenu');
  const p = useSnapshot(session.profile);
  const name = `${p.first_name} ${p.last_name}`.trim() || p.username;
  const initials = (p.first_name.charAt(0) + p.last_name.charAt(0)).toUpperCase() || p.username.charAt(0).toUpperCase();
  return (
    <MenuTrigger>
      <Button className="profile-btn" aria-label={t('profileMenu.label', { name })}>
        <span className="avatar" aria-hidden="true">
          {initials}
        </span>
      </Button>
      <Popover className="popover" placement="top start">
        <Menu className="menu" aria-label={t('profileMenu.label', { name })}>
          <MenuItem className="menu-item menu-header" isDisabled textValue={name}>
            <strong>{name}</strong>
            <span className="muted">{p.extension ? t('profileMenu.extension', { ext: p.extension }) : p.email}</span>
          </MenuItem>
          <SubmenuTrigger>
            <MenuItem className="menu-item" textValue={t('language')}>
              {t('language')}: {nativeLanguageName(i18n.language as (typeof LANGUAGES)[number])}
            </MenuItem>
            <Popover className="popover">
              <Menu className="menu" aria-label={t('language')} selectionMode="single" selectedKeys={[i18n.language]} onAction={(k) => void kernel.run('shell.language', { language: k }, 'menu')}>
                {LANGUAGES.map((l) => (
                  <MenuItem key={l} id={l} className="menu-item" lang={l} textValue={nativeLanguageName(l)}>
                    {nativeLanguageName(l)}
                  </MenuItem>
                ))}
              </Menu>
            </Popover>
          </SubmenuTrigger>
          <Separator className="menu-sep" />
          {contributedItems(items, t)}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

/** Menu items plugins contributed, as MenuItems (a function, not a component: Menu wants its items as children). */
function contributedItems(items: ReturnType<typeof useMenuItems>, t: TFunction): ReactElement[] {
  return items.map((i) => (
    <MenuItem key={i.id} id={i.id} className="menu-item" isDisabled={!i.enabled} onAction={i.run}>
      {t(i.titleKey)}
    </MenuItem>
  ));
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

function Slot({ slot }: { slot: 'callDock' | 'statusBar' }) {
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
        <span className="brand">{brand.product_name}</span>
        <PaletteButton />
        <div className="topbar-end">
          <CommandMenu menu="plusMenu" label={t('shell:plusMenu')} glyph="+" />
          <CommandMenu menu="appsMenu" label={t('shell:appsMenu')} glyph="⋮⋮" />
        </div>
      </header>
      <div className="body">
        <aside className="rail">
          <NavRail />
          <div className="rail-end">
            <ProfileMenu />
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
      <Slot slot="statusBar" />
      <DocumentTitle screenTitle={screenTitle} />
      <LazyShortcuts />
    </div>
  );
}
