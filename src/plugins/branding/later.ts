import { subscribe } from 'valtio';
import { type Enablement, type PluginLater } from '../../kernel';
import { brandingCommands } from './commands';
import { brandingState } from './state';

/* The later part (loaded after the first screen): the words the palette finds each command by, and whether there is a logo to remove. */
const mayRemove = (): Enablement => (brandingState.logoUrl ? true : { reasonKey: 'branding:reasons.noLogo' });

export const later: PluginLater = {
  commands: brandingCommands.later({
    upload: { keywords: ['logo', 'branding', 'company', 'image', 'picture'] },
    remove: { keywords: ['logo', 'branding', 'delete'], enabled: mayRemove },
  }),
  activate(ctx) {
    // "Remove logo" is enabled while there is one: bound buttons and the palette follow the logo.
    ctx.commandsRead((onChange) => subscribe(brandingState, onChange));
  },
};
