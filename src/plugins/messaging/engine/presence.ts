import { $pres } from 'strophe.js';
import type { PresenceState } from '../../../contracts';
import { fromWire, PresenceDebouncer, ResourcePresence, restoredOwnState, toWire, type Clock } from '../model/presence';
import { chat } from '../state';
import type { Connection } from './connection';
import type { ChatEngineDeps } from './deps';
import { parsePresence } from './stanzas';
import { log } from '../log';

interface StoredPresence {
  state: PresenceState;
  text: string;
  previous: PresenceState | null;
}

/**
 * Presence to colleagues, directed (nobody shares a roster): the user's own state, kept in the
 * browser's storage, and the colleagues' states as received, debounced.
 */
export class Presence {
  /** Presence as last received, before the debounce: whom to answer with ours. */
  private readonly rawAvailable = new Set<string>();
  private readonly debouncer: PresenceDebouncer;
  private readonly windows = new ResourcePresence();

  constructor(
    private readonly deps: Pick<ChatEngineDeps, 'storage' | 'userId'>,
    private readonly connection: Connection,
    clock: Clock,
  ) {
    this.debouncer = new PresenceDebouncer((jid, p) => (chat.presence[jid] = p), clock);
    const saved = this.loadOwnPresence();
    chat.own = restoredOwnState(saved?.state, saved?.previous);
    chat.ownText = saved?.text ?? '';
  }

  dispose(): void {
    this.debouncer.dispose();
  }

  stanza(to?: string): Element {
    const w = toWire(chat.own, chat.ownText, chat.onCall, chat.inMeeting);
    const p = $pres(to ? { to } : {});
    if (w.type && to) p.attrs({ type: w.type });
    if (w.show && !w.type) p.c('show').t(w.show).up();
    if (w.status && !w.type) p.c('status').t(w.status).up();
    return p.tree();
  }

  sendDirected(only?: string): void {
    const conn = this.connection.socket;
    if (!conn) return;
    if (chat.own === 'invisible' && !only) return;
    for (const c of chat.contacts) if (!only || c.jid === only) conn.send(this.stanza(c.jid));
  }

  onPresence(stanza: Element): boolean {
    try {
      const p = parsePresence(stanza);
      if (p.error || !p.from || p.from === chat.me) return true;
      const t = stanza.getAttribute('type');
      if (t && t !== 'unavailable') return true;
      const seen = fromWire(p.wire);
      const wasAvailable = this.rawAvailable.has(p.from);
      if (p.wire.type === 'unavailable') this.rawAvailable.delete(p.from);
      else {
        this.rawAvailable.add(p.from);
        // Someone came online who did not know about us yet: tell them our presence too.
        if (!wasAvailable && chat.own !== 'invisible' && chat.contacts.some((c) => c.jid === p.from)) this.sendDirected(p.from);
      }
      const shown = this.windows.update(p.from, p.resource, seen);
      // In Meeting is shown at once and locked through the debounce (specification).
      if (shown.inMeeting) this.debouncer.lock(p.from, shown);
      else {
        this.debouncer.unlock(p.from);
        this.debouncer.push(p.from, shown);
      }
    } catch (err) {
      log.error('unreadable presence', err);
    }
    return true;
  }

  setPresence(state: PresenceState, text = ''): void {
    const wasInvisible = chat.own === 'invisible';
    const previous = chat.own;
    chat.own = state;
    chat.ownText = state === 'custom' ? text.trim() : '';
    this.saveOwnPresence({ state, text: chat.ownText, previous });
    const conn = this.connection.socket;
    if (!conn || chat.status !== 'connected') return;
    if (state === 'invisible') {
      if (!wasInvisible) for (const c of chat.contacts) conn.send($pres({ to: c.jid, type: 'unavailable' }).tree());
      return;
    }
    conn.send(this.stanza());
    this.sendDirected();
  }

  /** Publishes the own presence again (the 'on call' text came or went); the stored state is unchanged. */
  republish(): void {
    const conn = this.connection.socket;
    if (!conn || chat.status !== 'connected' || chat.own === 'invisible') return;
    conn.send(this.stanza());
    this.sendDirected();
  }

  private presenceKey(): string {
    return `uc.messaging.presence.${this.deps.userId}`;
  }

  private loadOwnPresence(): StoredPresence | null {
    try {
      const raw = this.deps.storage?.getItem(this.presenceKey());
      return raw ? (JSON.parse(raw) as StoredPresence) : null;
    } catch {
      return null;
    }
  }

  private saveOwnPresence(p: StoredPresence): void {
    try {
      this.deps.storage?.setItem(this.presenceKey(), JSON.stringify(p));
    } catch {
      /* no storage: the state lasts for this page */
    }
  }
}
