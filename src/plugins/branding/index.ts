import { definePlugin, Session, toDisposable } from '../../kernel';
import { applyAccent } from './accent';
import { brandingCommands } from './commands';
import { brandingState, resetBrandingState } from './state';
import { Brand } from './ui/Brand';
import { DialogHost } from './ui/DialogHost';

/**
 * Branding: the organisation's logo in every member's top bar and its accent colour (when
 * readable), and for logo admins (owners, administrators) the upload and removal of the logo.
 * The dialog is the one lazy chunk.
 */
export const brandingPlugin = definePlugin({
  id: 'branding',
  titleKey: 'branding:title',
  i18n: { namespace: 'branding' },
  panels: [
    { id: 'branding.logo', slot: 'brand', component: Brand },
    { id: 'branding.dialog', slot: 'callDock', component: DialogHost },
  ],
  menus: [{ id: 'branding.menu.upload', menu: 'profileMenu', command: brandingCommands.ids.upload, order: 75 }],
  commands: brandingCommands.commands,
  hotkeys: brandingCommands.hotkeys,
  later: () => import('./later').then((m) => m.later),
  activate(ctx) {
    const { branding } = ctx.services.get(Session).config;
    brandingState.logoUrl = branding.logo_url;
    const removeAccent = applyAccent(branding.accent_color);
    return toDisposable(() => {
      removeAccent();
      resetBrandingState();
    });
  },
});

export default brandingPlugin;
