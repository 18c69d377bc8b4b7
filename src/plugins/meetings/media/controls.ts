import i18next from 'i18next';
import { Notifications, type ServiceLookup } from '../../../kernel';
import { log } from '../log';
import { activeSession } from './active';
import { activeSpeaker } from './signals';

/* What the meeting page's commands do: the same whether pressed, typed in the palette or a hotkey. */

export function toggleMute(): void {
  const s = activeSession();
  s?.setMuted(!s.state.self.muted);
}

export async function toggleCamera(services: ServiceLookup): Promise<void> {
  const s = activeSession();
  if (!s) return;
  try {
    await s.setCamera(!s.state.self.camera);
  } catch (err) {
    log.warn('camera not switched', err);
    services.get(Notifications).toast({ titleKey: 'meetings:room.cameraFailed', tone: 'error' });
  }
}

export async function toggleShare(services: ServiceLookup): Promise<void> {
  const s = activeSession();
  if (!s) return;
  try {
    if (s.state.self.sharing) await s.stopShare();
    else await s.startShare();
  } catch (err) {
    log.warn('screen share not switched', err);
    services.get(Notifications).toast({ titleKey: 'meetings:room.shareFailed', tone: 'error' });
  }
}

export function toggleHand(): void {
  const s = activeSession();
  s?.setHand(!s.state.self.hand);
}

export function togglePanel(panel: 'participants' | 'chat' | 'devices'): void {
  const s = activeSession();
  if (s) s.state.panel = s.state.panel === panel ? null : panel;
}

/** Says who speaks now (or last spoke), on request: a screen reader is not told every change. */
export function announceSpeaker(services: ServiceLookup): void {
  const s = activeSession();
  if (!s) return;
  const peers = Object.values(s.state.peers);
  // People: browsers and phones dialled in (a phone named as its tile is, "Phone <number>").
  const feed = activeSpeaker(peers.filter((p) => p.kind !== 'screen'));
  const peer = feed === null ? undefined : s.state.peers[feed];
  const name = peer?.kind === 'phone' ? i18next.t('meetings:room.phoneOf', { name: peer.name }) : peer?.name;
  const text = s.state.self.talking
    ? i18next.t('meetings:room.speakingYou')
    : peer
      ? i18next.t(peer.talking ? 'meetings:room.speakingNow' : 'meetings:room.spokeLast', { name })
      : i18next.t('meetings:room.speakingNobody');
  services.get(Notifications).announce(text, 'assertive');
}

export function leaveMeeting(): void {
  activeSession()?.leave();
}
