import i18next from 'i18next';
import { Navigation, Notifications, type ServiceLookup } from '../../kernel';
import { desktopNotices } from '../../kernel/lazy';
import { PeerPresenceApi, type PresenceState } from '../../contracts';
import type { Disposable } from '../../kernel';
import { CONTACTS_PATH } from './commands';

/** A colleague the user asked to hear about: when chat sees them available, the user is told once. */
export interface Watched {
  userId: number;
  contactId: string;
  name: string;
}

const watching = new Map<number, Watched>();
let subscription: Disposable | null = null;

/** The presence that means "you can reach them now". */
const reachable = (state: PresenceState | undefined) => state === 'available';

const open = (s: ServiceLookup, w: Watched) => s.get(Navigation).navigate(CONTACTS_PATH, { search: { contact: w.contactId } });

function check(s: ServiceLookup): void {
  const presence = s.maybe(PeerPresenceApi);
  if (!presence) return;
  for (const w of [...watching.values()]) {
    if (!reachable(presence.of(w.userId)?.state)) continue;
    watching.delete(w.userId);
    // In the app (a toast that opens the contact) and, when the tab is in the background, on the desktop.
    s.get(Notifications).toast({ titleKey: 'contacts:available.title', values: { name: w.name }, tone: 'info', timeoutMs: null, action: { labelKey: 'contacts:available.open', run: () => open(s, w) } });
    desktopNotices(s).show('chat', { tag: `available-${w.userId}`, title: i18next.t('contacts:available.title', { name: w.name }), body: i18next.t('contacts:available.body'), open: () => open(s, w) });
  }
  if (watching.size === 0) stop();
}

function stop(): void {
  subscription?.dispose();
  subscription = null;
}

/**
 * "Notify me when available": the user is told when the colleague next becomes available, once
 * (at once if they already are); asking again while waiting stops waiting.
 */
export function toggleWatch(s: ServiceLookup, w: Watched): 'watching' | 'stopped' | 'told' {
  if (watching.delete(w.userId)) {
    if (watching.size === 0) stop();
    return 'stopped';
  }
  watching.set(w.userId, w);
  subscription ??= s.maybe(PeerPresenceApi)?.onChange(() => check(s)) ?? null;
  check(s);
  return watching.has(w.userId) ? 'watching' : 'told';
}

export const isWatched = (userId: number): boolean => watching.has(userId);

/** Forgets every watch (sign-out, tests). */
export function resetWatches(): void {
  watching.clear();
  stop();
}
