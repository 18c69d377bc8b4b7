import { toDisposable } from '../../kernel';
import type { ChatPayload, ChatPayloadEvent } from '../../contracts';
import { log } from './log';
import { chat } from './state';

/*
 * Payloads of other plugins carried by chat messages (the meetings' ad-hoc invites): the engine
 * reads the elements of the namespaces subscribed here and hands each message that carries one to
 * its listeners. Boot code: a plugin may subscribe before the chat chunk is in.
 */
const listeners = new Map<string, Set<(e: ChatPayloadEvent) => void>>();

/** Whether the engine should read elements of this namespace off a message. */
export const isPayloadNamespace = (ns: string | null): boolean => ns !== null && listeners.has(ns);

export function subscribePayloads(ns: string, listener: (e: ChatPayloadEvent) => void) {
  const set = listeners.get(ns) ?? new Set();
  listeners.set(ns, set);
  set.add(listener);
  return toDisposable(() => {
    set.delete(listener);
    if (!set.size) listeners.delete(ns);
  });
}

/** A one-to-one message with a payload, live or read from the archive. */
export function publishPayload(payload: ChatPayload, peer: string, mine: boolean, messageId: string, live: boolean): void {
  const contact = chat.contacts.find((c) => c.jid === peer);
  const e: ChatPayloadEvent = { payload, peerUserId: contact?.user_id ?? null, peerName: contact?.name ?? peer.split('@')[0]!, mine, messageId, live };
  for (const l of listeners.get(payload.ns) ?? []) {
    try {
      l(e);
    } catch (err) {
      log.error('payload listener failed', err);
    }
  }
}
