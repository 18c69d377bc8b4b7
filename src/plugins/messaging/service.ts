import { Navigation, type PluginContext } from '../../kernel';
import type { MessagingService, PresenceService } from '../../contracts';
import { chatChunk } from './chunk';
import { chat, chatPath } from './state';
import { newTextPath } from './texts/state';

/** Presence for the other plugins: the user's own state, and telephony's "on a call". */
export const presenceApi = (): PresenceService => ({
  ownState: () => chat.own,
  setOnCall: (onCall) => {
    if (chat.onCall === onCall) return;
    chat.onCall = onCall;
    // Not yet connected: the first presence the engine sends already carries it.
    void chatChunk.currentIfLoaded().then((e) => e?.republishPresence());
  },
});

/** Opening a chat with a colleague (once the engine knows the contacts), or a new text to a number. */
export const messagingApi = (ctx: PluginContext): MessagingService => ({
  openChat: (userId) =>
    void chatChunk.withEngine(ctx.services, () => {
      const c = chat.contacts.find((x) => x.user_id === userId);
      if (c) ctx.services.get(Navigation).navigate(chatPath(c.jid));
    }),
  newText: (number) => ctx.services.get(Navigation).navigate(newTextPath(number)),
});
