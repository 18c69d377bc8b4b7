/**
 * The dashboard's pure rules: the merged feed (voicemail, calls, messages; newest first) and the
 * clock's text in the user's zone and language.
 */

/** What the feed shows of calls: the specification's "last 7 days and 50 records". */
export const FEED_CALL_DAYS = 7;
export const FEED_CALL_LIMIT = 50;
/** Messages and voicemail are capped alike, so that one busy source does not push the others out. */
export const FEED_SOURCE_LIMIT = 50;
export const DAY_MS = 86_400_000;

interface FeedBase {
  /** Unique across sources: `<kind>:<id>`. */
  key: string;
  /** ms since the epoch. */
  at: number;
  /** Who: a caller's name or number, the conversation's name. */
  name: string;
}
export interface VoicemailItem extends FeedBase {
  kind: 'voicemail';
  id: string;
  unread: boolean;
}
export interface CallItem extends FeedBase {
  kind: 'call';
  id: string;
  direction: 'in' | 'out' | 'missed';
}
export interface MessageItem extends FeedBase {
  kind: 'message';
  text: string;
  /** The user wrote it. */
  own: boolean;
  path: string;
}
export type FeedItem = VoicemailItem | CallItem | MessageItem;

/** Calls older than this are not shown (7 days before `now`). */
export const callsSince = (now: number): number => now - FEED_CALL_DAYS * DAY_MS;

/**
 * One feed: calls of the last 7 days (at most 50, the newest), voicemail and messages (at most 50
 * each), merged newest first. Items with the same key keep their first copy (a refresh racing a
 * live message); items without a valid time go last rather than break the order.
 */
export function mergeFeed(sources: { voicemail?: readonly VoicemailItem[]; calls?: readonly CallItem[]; messages?: readonly MessageItem[] }, now: number): FeedItem[] {
  const newest = <T extends FeedItem>(xs: readonly T[] = []) => [...xs].sort(byNewest);
  const since = callsSince(now);
  const calls = newest(sources.calls).filter((c) => c.at >= since).slice(0, FEED_CALL_LIMIT);
  const all: FeedItem[] = [...newest(sources.voicemail).slice(0, FEED_SOURCE_LIMIT), ...calls, ...newest(sources.messages).slice(0, FEED_SOURCE_LIMIT)];
  const seen = new Set<string>();
  return all.sort(byNewest).filter((i) => !seen.has(i.key) && (seen.add(i.key), true));
}

function byNewest(a: FeedItem, b: FeedItem): number {
  const x = Number.isFinite(a.at) ? a.at : -Infinity;
  const y = Number.isFinite(b.at) ? b.at : -Infinity;
  return y === x ? a.key.localeCompare(b.key) : y - x;
}

/** The clock's lines: the time (hours and minutes) and the long date, in the user's language and zone. */
export function clockText(at: Date, locale: string, timeZone?: string): { time: string; date: string; zone: string } {
  const zone = timeZone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return {
    time: new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: zone }).format(at),
    date: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: zone }).format(at),
    zone: zoneName(at, locale, zone),
  };
}

/** "Central European Standard Time", or the zone's id where the language has no long name for it. */
function zoneName(at: Date, locale: string, timeZone: string): string {
  const part = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'long' }).formatToParts(at).find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

/** When the feed's times read as "10:42" (today, in the zone) or "Mon 27 Nov, 10:42" (before). */
export function feedTime(at: number, now: number, locale: string, timeZone?: string): string {
  const day = (t: number) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(t);
  const today = day(at) === day(now);
  return new Intl.DateTimeFormat(locale, today ? { timeStyle: 'short', timeZone } : { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZone }).format(at);
}
