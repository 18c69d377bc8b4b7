import { HISTORY_PATH } from '../../../contracts';
import type { DesktopNotices } from '../../../kernel/lazy';
import type { DesktopNotifier } from './deps';

/**
 * Call notifications, shown only when the user allowed them and this tab is not in front (in front,
 * the dock and the ringing are there already). Clicking a ringing call's notification brings the
 * tab forward on the call; a missed call's, on the call history. Nothing when the user switched
 * call notifications off (Preferences ▸ Messages).
 */
export function desktopNotifier(opts: { t(key: string, values?: Record<string, unknown>): string; navigate(to: string): void; notices: DesktopNotices }): DesktopNotifier {
  const open = new Map<string, Notification>();
  const hidden = () => document.visibilityState !== 'visible';
  const show = (tag: string, title: string, body: string, to: string, sticky: boolean) =>
    opts.notices.show('calls', { tag, title, body, sticky, open: () => opts.navigate(to) });
  return {
    incoming(callId, name) {
      if (!hidden()) return;
      const n = show(`call-${callId}`, opts.t('telephony:notify.incomingTitle'), opts.t('telephony:notify.incoming', { name }), `/calls/${callId}`, true);
      if (n) open.set(callId, n);
    },
    missed(callId, name) {
      if (!hidden()) return;
      show(`missed-${callId}`, opts.t('telephony:notify.missedTitle'), opts.t('telephony:notify.missed', { name }), HISTORY_PATH, false);
    },
    close(callId) {
      open.get(callId)?.close();
      open.delete(callId);
    },
  };
}
