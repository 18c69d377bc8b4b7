import { definePlugin } from '../kernel';
import { openPalette } from './store';

/** The palette contributes its own command and hotkey like any plugin, so users can remap Mod+K. */
export const palettePlugin = definePlugin({
  id: 'palette',
  titleKey: 'palette:pluginTitle',
  i18n: { namespace: 'palette', load: (lng) => import(`./locales/${lng}.json`).then((m: { default: Record<string, unknown> }) => m.default) },
  commands: [
    {
      id: 'palette.open',
      titleKey: 'palette:open',
      keywords: ['command', 'search', 'find'],
      hiddenInPalette: true,
      run: () => openPalette(),
    },
  ],
  hotkeys: [{ command: 'palette.open', keys: '$mod+k', allowInInputs: true, weight: 100 }],
});
