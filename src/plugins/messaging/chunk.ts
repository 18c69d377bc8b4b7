import { lazyEngineChunk } from '../../kernel';

/**
 * The plugin's one lazy chunk (`lazy.ts`: the engine with Strophe.js, the screens, their strings),
 * imported once on first need. Every load goes through this handle, so that the provided services
 * and the plugin's dispose reach the engine only when the chunk is in.
 */
export const chatChunk = lazyEngineChunk(() => import('./lazy'));
