import type { ChatMessage } from '../model/chat';
import type { Clock } from '../model/presence';
import type { ChatSessionState } from '../state';

/**
 * How long a message may wait for the chat server: as long as the banner's automatic retries last
 * (0 + 15 + 30 + 60 + 300 s), and a little more for the last try to connect. After that the banner
 * offers a manual retry and the message says "Not sent", with its own Retry.
 */
export const OUTBOX_GIVE_UP_MS = 7 * 60_000;

interface Entry {
  jid: string;
  /** When it was written (or retried): the give-up bound counts from here. */
  since: number;
  /** The connection (generation) it went out on; null while it waits for one. */
  sentOn: number | null;
}

/** What survives a reload of the tab: the waiting messages and every conversation's unsent words. */
interface Stored {
  v: 1;
  queued: Array<{ jid: string; type: ChatSessionState['type']; name: string; since: number; message: ChatMessage }>;
  drafts: Array<{ jid: string; type: ChatSessionState['type']; name: string; text: string }>;
}

type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * The user's own messages the server has not confirmed yet, in the order they were written. A
 * message waits here while chat is down and goes out when it is back; one that went out on a
 * connection that then dropped waits again (the catch-up after the reconnect settles it if the
 * server had it, so it is never sent twice). Kept in the tab's session storage with the drafts, so
 * a reload during an outage loses nothing; never in local storage, or two tabs would both send it.
 */
export class Outbox {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly storage: SessionStore | null,
    private readonly key: string,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** A new message, or one the user retries: it goes to the end of the line. */
  add(id: string, jid: string): void {
    this.entries.delete(id);
    this.entries.set(id, { jid, since: this.clock.now(), sentOn: null });
  }

  /** The server confirmed it, refused it, or it was given up: it leaves the outbox. */
  settle(id: string): boolean {
    return this.entries.delete(id);
  }

  sent(id: string, generation: number): void {
    const e = this.entries.get(id);
    if (e) e.sentOn = generation;
  }

  /** The connection dropped: whatever was on its way is unconfirmed, and waits again. */
  connectionLost(): void {
    for (const e of this.entries.values()) e.sentOn = null;
  }

  /** Messages still to send, in the order written. */
  waiting(): Array<{ id: string; jid: string }> {
    return [...this.entries].filter(([, e]) => e.sentOn === null).map(([id, e]) => ({ id, jid: e.jid }));
  }

  /** Waiting messages past the give-up bound. */
  expired(): Array<{ id: string; jid: string }> {
    const now = this.clock.now();
    return [...this.entries].filter(([, e]) => e.sentOn === null && now - e.since >= OUTBOX_GIVE_UP_MS).map(([id, e]) => ({ id, jid: e.jid }));
  }

  /** ms until the oldest waiting message reaches the bound; null when nothing waits. */
  nextExpiryIn(): number | null {
    let oldest = Infinity;
    for (const e of this.entries.values()) if (e.sentOn === null) oldest = Math.min(oldest, e.since);
    return oldest === Infinity ? null : Math.max(0, oldest + OUTBOX_GIVE_UP_MS - this.clock.now());
  }

  save(sessions: Readonly<Record<string, ChatSessionState>>): void {
    if (!this.storage) return;
    const queued: Stored['queued'] = [];
    for (const [id, e] of this.entries) {
      const s = sessions[e.jid];
      const message = s?.messages.find((m) => m.id === id);
      if (s && message) queued.push({ jid: s.jid, type: s.type, name: s.name, since: e.since, message: { ...message, media: message.media ? { ...message.media } : null } });
    }
    const drafts: Stored['drafts'] = [];
    for (const s of Object.values(sessions)) if (s.input) drafts.push({ jid: s.jid, type: s.type, name: s.name, text: s.input });
    try {
      if (queued.length || drafts.length) this.storage.setItem(this.key, JSON.stringify({ v: 1, queued, drafts } satisfies Stored));
      else this.storage.removeItem(this.key);
    } catch {
      /* storage full or refused: what is on screen still goes out while the page lives */
    }
  }

  /** What a previous page of this tab left: the messages join the outbox again (keeping their age). */
  restore(): Stored | null {
    let stored: Stored | null = null;
    try {
      const raw = this.storage?.getItem(this.key);
      stored = raw ? (JSON.parse(raw) as Stored) : null;
    } catch {
      return null;
    }
    if (stored?.v !== 1) return null;
    for (const q of stored.queued) this.entries.set(q.message.id, { jid: q.jid, since: q.since, sentOn: null });
    return stored;
  }

  /** Signed out: nothing of this user's stays in the tab. */
  clear(): void {
    this.entries.clear();
    try {
      this.storage?.removeItem(this.key);
    } catch {
      /* nothing stored */
    }
  }
}
