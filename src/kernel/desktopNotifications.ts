/**
 * Desktop notifications for every plugin (calls, chat, texts…): one browser permission for the
 * product, asked by one command. Imported directly by the plugins' lazy engines (not re-exported
 * from the kernel's index) so that none of it is on the boot path.
 */

export interface DesktopNotice {
  /** Same tag, same notification: a newer one replaces it instead of piling up. */
  tag: string;
  title: string;
  body: string;
  /** Stays until acted on (a ringing call); otherwise the system hides it after a while. */
  sticky?: boolean;
  /** Clicked: the tab has already been brought forward; open what the notice is about. */
  open(): void;
}

/** Whether the user let this site show notifications (and the browser can). */
export function desktopNotificationsAllowed(): boolean {
  return typeof Notification === 'function' && Notification.permission === 'granted';
}

/** Shows the notice when allowed; null when not allowed or the platform refused. */
export function showDesktopNotice(notice: DesktopNotice): Notification | null {
  if (!desktopNotificationsAllowed()) return null;
  try {
    const n = new Notification(notice.title, { body: notice.body, tag: notice.tag, requireInteraction: notice.sticky === true });
    n.onclick = () => {
      window.focus();
      notice.open();
      n.close();
    };
    return n;
  } catch (err) {
    // Some platforms (Android Chrome) only allow notifications from a service worker.
    console.error('desktop notification', err);
    return null;
  }
}
