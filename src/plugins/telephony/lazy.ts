import { callTarget } from './engine/callTarget';
import { currentSettings, startEngine } from './engine';
import { makeRuns } from './runs';
import { destinationFrom } from './settings/callSettings';

/*
 * Everything telephony needs after boot, as ONE chunk: the engine (JsSIP, WebAudio), the command
 * runs, the dock, the dialpad and the call screens. It is fetched when the browser is idle after the
 * first screen (chunk.ts). One lazy entry (rather than one per screen) keeps the chunks the first
 * screen shares with other lazy screens as they were, and nothing in here imports anything dynamically.
 */
export { startEngine, stopEngine, currentEngine, currentSettings } from './engine';
export { uiStrings } from './uiStrings';
export { default as CallDock } from './ui/CallDock';
export { default as CallsScreen } from './ui/CallsScreen';
export { default as CallDetailScreen } from './ui/CallDetailScreen';
export { default as TransferScreen } from './ui/TransferScreen';
export { default as DialLinkScreen } from './ui/DialLinkScreen';

/** What each lazy command of the table does, on the real engine. */
export const runs = makeRuns({ startEngine, currentSettings, callTarget, destinationFrom });
