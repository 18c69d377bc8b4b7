import type { TabChannel } from './types';

const PEER_KEY = 'uc.telephony.peer';
/** How long an open tab has to say "that id is mine". */
const ASK_MS = 150;

function stored(): string | null {
  try {
    return sessionStorage.getItem(PEER_KEY);
  } catch {
    return null;
  }
}

function store(id: string): void {
  try {
    sessionStorage.setItem(PEER_KEY, id);
  } catch {
    /* no storage: a fresh id per load */
  }
}

const fresh = () => `web-${crypto.randomUUID()}`;

/**
 * This tab's registration peer id, kept in sessionStorage so that a reload keeps the hold (the tab
 * must not be told it is active elsewhere). A duplicated tab starts with a copy of that storage, so
 * a tab first asks the others whether the id is taken, and picks a new one if it is.
 */
export async function tabPeerId(channel: TabChannel | null): Promise<string> {
  let id = stored() ?? fresh();
  if (channel) {
    const asked = id;
    const taken = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ASK_MS);
      channel.onMessage((m) => {
        if (m.type === 'peer!' && m.peer === asked) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      channel.post({ type: 'peer?', peer: asked });
    });
    if (taken) id = fresh();
    channel.onMessage((m) => {
      if (m.type === 'peer?' && m.peer === id) channel.post({ type: 'peer!', peer: id });
    });
  }
  store(id);
  return id;
}

/** Tabs of the same user in this browser. */
export function tabChannel(userId: number): TabChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  const ch = new BroadcastChannel(`uc-telephony-${userId}`);
  return {
    post: (m) => ch.postMessage(m),
    onMessage: (listener) => ch.addEventListener('message', (e: MessageEvent<Parameters<typeof listener>[0]>) => listener(e.data)),
    close: () => ch.close(),
  };
}
