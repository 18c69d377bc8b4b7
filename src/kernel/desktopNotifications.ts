/**
 * Desktop notifications for every plugin (calls, chat, texts…): one browser permission for the
 * product, asked by one command. Imported directly by the plugins' lazy engines (not re-exported
 * from the kernel's index) so that none of it is on the boot path.
 */
import type { PreferenceKey } from '../wire/preferences';
import { Preferences } from './coreServices';
import type { ServiceLookup } from './services';

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

/** The kinds of desktop notification, each with its own switch in the Messages preferences. */
export const NOTICE_KINDS = ['chat', 'texts', 'voicemail', 'calls'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
/** Holds the kinds switched off (an array); never saved reads false: every kind on. */
export const NOTICES_OFF_PREFERENCE = 'uc-desktop-notifications-off' satisfies PreferenceKey;

/** The saved preference read as the kinds switched off; anything unreadable switches nothing off. */
export function noticeKindsOff(saved: unknown): NoticeKind[] {
  if (!Array.isArray(saved)) return [];
  return NOTICE_KINDS.filter((k) => saved.includes(k));
}

export interface DesktopNotices {
  on(kind: NoticeKind): boolean;
  /** Shows the notice unless its kind is switched off (or notifications are not allowed). */
  show(kind: NoticeKind, notice: DesktopNotice): Notification | null;
}

const switches = new WeakMap<ServiceLookup, DesktopNotices>();

/**
 * The per-kind switches of this signed-in app: read once, then kept up to date when the
 * preferences panel saves them (no reload). Until the first read answers every kind is on.
 */
export function desktopNotices(services: ServiceLookup, show: (n: DesktopNotice) => Notification | null = showDesktopNotice): DesktopNotices {
  let made = switches.get(services);
  if (made) return made;
  let off: NoticeKind[] = [];
  const prefs = services.maybe(Preferences);
  let changed = false;
  prefs?.onChange?.(NOTICES_OFF_PREFERENCE, (v) => ((changed = true), (off = noticeKindsOff(v))));
  prefs?.get(NOTICES_OFF_PREFERENCE).then(
    (v) => void (changed || (off = noticeKindsOff(v))),
    () => undefined,
  );
  made = {
    on: (kind) => !off.includes(kind),
    show: (kind, notice) => (off.includes(kind) ? null : show(notice)),
  };
  switches.set(services, made);
  return made;
}
