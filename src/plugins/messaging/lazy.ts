/*
 * Everything chat and texts need after boot, as ONE chunk (as telephony does): the engine with
 * Strophe.js, the texts store, the screens and their strings, and the commands' work. Fetched when
 * the browser is idle after the first screen.
 */
import { Navigation, type CommandRun, type LazyRuns, type ServiceLookup } from '../../kernel';
import { chatAlerts } from './alerts';
import type { messagingTable } from './commands';
import { startEngine, stopEngine as stopChat } from './engine';
import type { ChatEngine } from './engine/ChatEngine';
import { chat, CHAT_PATH } from './state';
import { startTexts, stopTexts, toggleTextMute } from './texts/api';
import { texts } from './texts/state';

export { startEngine, currentEngine } from './engine';
export { uiStrings } from './uiStrings';
export { default as ChatScreen } from './ui/ChatScreen';
export { default as TextsScreen } from './ui/TextsScreen';
export { default as RoomEditScreen } from './ui/RoomEditScreen';

/** After the first screen: the engine, then (once chat runs) the texts. */
export async function start(services: ServiceLookup): Promise<void> {
  if (await startEngine(services)) await startTexts(services);
}

/** The plugin's dispose (sign-out, unload): the texts' refresh stops with the chat engine, and a later start begins afresh. */
export function stopEngine(): void {
  stopTexts();
  stopChat();
}

/** Runs `work` with the engine, started if need be (nothing when chat cannot start). */
async function withEngine(services: ServiceLookup, work: (e: ChatEngine) => unknown): Promise<void> {
  const e = await startEngine(services);
  if (e) await work(e);
}

/** A session's mute, pin, close or leave; a session that left the bar while on screen sends the user to the list. */
const sessionRun =
  (action: Parameters<ChatEngine['sessionAction']>[0]): CommandRun<{ readonly jid?: string }> =>
  (ctx, { jid }) =>
    withEngine(ctx.services, async (e) => {
      if (jid !== undefined && (await e.sessionAction(action, jid)) && chat.open === jid) ctx.services.get(Navigation).navigate(CHAT_PATH);
    });

/** What each command of the table without a boot run does. */
export const runs: LazyRuns<typeof messagingTable> = {
  toggleMute: sessionRun('toggleMute'),
  'texts.toggleMute': () => (texts.open ? toggleTextMute(texts.open) : undefined),
  pin: sessionRun('pin'),
  close: sessionRun('close'),
  leave: sessionRun('leave'),
  markAllRead: (ctx) => withEngine(ctx.services, (e) => e.markAllRead()),
  chatSound: (ctx) => chatAlerts(ctx.services).toggleSound(),
  setPresence: (ctx, { state }) => withEngine(ctx.services, (e) => state && e.setPresence(state)),
  customStatus: (ctx, { text }) => withEngine(ctx.services, (e) => e.setPresence('custom', text ?? '')),
};
