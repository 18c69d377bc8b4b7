import { toDisposable, type ServerPushHub } from '../kernel';

/** The page's one hub for the server's pushes: a listener that throws never stops the others. */
export function createServerPush(): ServerPushHub {
  const listeners = new Map<string, Set<(body: string) => void>>();
  return {
    publish(subject, body) {
      for (const l of listeners.get(subject) ?? []) {
        try {
          l(body);
        } catch (err) {
          console.error(`server push ${subject}`, err);
        }
      }
    },
    subscribe(subject, listener) {
      let set = listeners.get(subject);
      if (!set) listeners.set(subject, (set = new Set()));
      set.add(listener);
      return toDisposable(() => set.delete(listener));
    },
  };
}
