import { MenuItem, Button, Menu, MenuTrigger, Popover, Separator, SubmenuTrigger } from 'react-aria-components';
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Session, useCommandState, useContextSnapshot, useKernel, useRegistry, useService, type MenuId, LANGUAGES, nativeLanguageName } from '../kernel';
import { openPalette } from '../palette';

/* The frame's menus (plus, apps, profile), loaded lazily by AppFrame. */

function useMenuItems(menu: MenuId) {
  const kernel = useKernel();
  const context = useContextSnapshot();
  useCommandState();
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
export function CommandMenu({ menu, label, glyph }: { menu: MenuId; label: string; glyph: string }) {
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

export function ProfileMenu() {
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

