import { subscribe } from 'valtio';
import { meetingsState } from '../state';
import type { MeetingSession } from './session';

/*
 * The meeting page's session, for the commands (Ctrl+D from anywhere in the window acts on it).
 * One per window: the meeting window holds one meeting.
 */
let current: MeetingSession | null = null;
let unwatch: (() => void) | null = null;

export const activeSession = (): MeetingSession | null => current;

export function setActiveSession(session: MeetingSession | null): void {
  unwatch?.();
  unwatch = null;
  current = session;
  if (!session) {
    meetingsState.live = null;
    return;
  }
  const mirror = () => {
    const { self, phase, panel } = session.state;
    meetingsState.live = phase === 'ended' ? null : { muted: self.muted, camera: self.camera, hand: self.hand, sharing: self.sharing, panel };
  };
  mirror();
  unwatch = subscribe(session.state, mirror);
}
