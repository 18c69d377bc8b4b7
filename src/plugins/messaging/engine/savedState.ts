import { $iq, $msg } from 'strophe.js';
import type { Clock } from '../model/presence';
import { chat } from '../state';
import type { Connection } from './connection';
import { NS, parseStoredChats, type StoredChats } from './stanzas';

type Saved = StoredChats[string];

/**
 * What the user's clients share per conversation (read position, muted, roster group), kept in the
 * server's private XML storage; saved a second after the last change, and the user's other clients
 * told to re-read it.
 */
export class SavedState {
  private stored: StoredChats = {};
  private saveTimer: unknown = null;

  constructor(
    private readonly connection: Connection,
    private readonly clock: Clock,
  ) {}

  get(jid: string): Saved | undefined {
    return this.stored[jid];
  }

  /** Changes a conversation's entry and saves soon. */
  update(jid: string, change: Saved): void {
    this.stored[jid] = { ...this.stored[jid], ...change };
    this.saveSoon();
  }

  /** An ended conversation leaves the server's list. */
  forget(jid: string): void {
    if (this.stored[jid]) {
      delete this.stored[jid];
      this.saveSoon();
    }
  }

  /** The server's copy replaces ours (after a (re)connect, or another client saved). */
  async load(): Promise<void> {
    this.stored = parseStoredChats(await this.connection.iq($iq({ type: 'get' }).c('query', { xmlns: NS.private }).c('chats', { xmlns: NS.chats })));
  }

  /** Signing out: what is not saved yet is saved now, if it can be. */
  dispose(): void {
    this.clock.clearTimeout(this.saveTimer);
    this.flush();
  }

  private saveSoon(): void {
    this.clock.clearTimeout(this.saveTimer);
    this.saveTimer = this.clock.setTimeout(() => this.flush(), 1000);
  }

  private flush(): void {
    if (!this.connection.isConnected()) return;
    this.clock.clearTimeout(this.saveTimer);
    const stanza = $iq({ type: 'set' }).c('query', { xmlns: NS.private }).c('chats', { xmlns: NS.chats }).t(JSON.stringify(this.stored));
    // Saved: the user's other clients re-read it (read positions, mute, roster groups, ended sessions).
    void this.connection.iq(stanza).then(
      () => this.connection.send($msg({ to: chat.me, type: 'headline' }).c('x', { xmlns: NS.chats }).tree()),
      () => undefined,
    );
  }
}
