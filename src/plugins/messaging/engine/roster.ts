import { moveToRosterGroup, type RosterGroup } from '../model/sessions';
import { chat } from '../state';
import type { SavedState } from './savedState';
import type { Sessions } from './sessions';
import { bare } from './stanzas';

/** Roster groups (pinned, recent, closed) and muting, shared with the user's other clients. */
export class Roster {
  constructor(
    private readonly sessions: Sessions,
    private readonly saved: SavedState,
  ) {}

  /** Pin, back to recent, or close; a chat is in one roster group only. */
  setRosterGroup(jid: string, group: RosterGroup): void {
    const s = chat.sessions[bare(jid)];
    if (!s) return;
    chat.rosterGroups = moveToRosterGroup(chat.rosterGroups, s.jid, group);
    this.saved.update(s.jid, { group });
  }

  setMuted(jid: string, muted: boolean): void {
    const s = this.sessions.session(jid);
    s.muted = muted;
    this.saved.update(s.jid, { muted });
  }
}
