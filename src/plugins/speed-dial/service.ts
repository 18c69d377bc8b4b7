import type { PluginContext } from '../../kernel';
import type { SpeedDialService } from '../../contracts';
import { loadChunk } from './chunk';

/** `#12` in the dialpad or the palette: resolved from the list the chunk loads (fetched now if it is not in yet). */
export const speedDialService = (ctx: PluginContext): SpeedDialService => ({
  resolve: (shortcut) => loadChunk().then((m) => m.resolve(ctx.services, shortcut)),
});
