/*
 * Everything chat needs after boot, as ONE chunk (as telephony does): the engine with Strophe.js,
 * the screens and their strings. Fetched when the browser is idle after the first screen.
 */
export { startEngine, stopEngine, currentEngine } from './engine';
export { uiStrings } from './uiStrings';
export { default as ChatScreen } from './ui/ChatScreen';
export { default as TextsScreen } from './texts/TextsScreen';
export { startTexts } from './texts/store';
export { default as RoomEditScreen } from './ui/RoomEditScreen';
export { chatAlerts } from './alerts';
