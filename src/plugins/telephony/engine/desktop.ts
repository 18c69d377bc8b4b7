import type { DesktopNotifier } from './PhoneEngine';

/**
 * Call notifications through the browser's Notification API, shown only when the user allowed
 * them and this tab is not in front (in front, the dock and the ringing are there already).
 * Clicking a ringing call's notification brings the tab forward on the call; a missed call's, on
 * the call history.
 */
export function desktopNotifier(opts: { t(key: string, values?: Record<string, unknown>): string; navigate(to: string): void }): DesktopNotifier {
  const open = new Map<string, Notification>();
  const allowed = () => typeof Notification === 'function' && Notification.permission === 'granted' && document.visibilityState !== 'visible';
  const show = (key: string, title: string, body: string, to: string, sticky: boolean) => {
    try {
      const n = new Notification(title, { body, tag: key, requireInteraction: sticky });
      n.onclick = () => {
        window.focus();
        opts.navigate(to);
        n.close();
      };
      return n;
    } catch (err) {
      // Some platforms only allow notifications from a service worker.
      console.error('telephony: notification', err);
      return null;
    }
  };
  return {
    incoming(callId, name) {
      if (!allowed()) return;
      const n = show(`call-${callId}`, opts.t('telephony:notify.incomingTitle'), opts.t('telephony:notify.incoming', { name }), `/calls/${callId}`, true);
      if (n) open.set(callId, n);
    },
    missed(callId, name) {
      if (!allowed()) return;
      show(`missed-${callId}`, opts.t('telephony:notify.missedTitle'), opts.t('telephony:notify.missed', { name }), '/history', false);
    },
    close(callId) {
      open.get(callId)?.close();
      open.delete(callId);
    },
  };
}
