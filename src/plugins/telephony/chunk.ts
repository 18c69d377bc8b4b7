import { lazyEngineChunk } from '../../kernel';

/*
 * The one telephony chunk (lazy.ts: the engine with JsSIP and WebAudio, the dock, the screens, the
 * command runs), imported once with its strings: on the first command, screen or dock that needs
 * it, or when the browser is idle after the first screen. The boot part keeps only this handle.
 */
export const telephonyChunk = lazyEngineChunk(() => import('./lazy'));
