import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import ical, { type VEvent } from 'node-ical';
import type { ExternalEvent } from './repository';

/** What a feed read may cost: a calendar of a few years is well under this. */
export interface FeedLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  maxEvents: number;
  /** Loopback and private addresses: refused unless a test (or an intranet deployment) allows them. */
  allowPrivateHosts: boolean;
}

export const DEFAULT_FEED_LIMITS: FeedLimits = { maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3, maxEvents: 5000, allowPrivateHosts: false };

export class FeedError extends Error {
  constructor(
    readonly code: 'feed_address' | 'feed_unreachable' | 'feed_invalid',
    message: string,
  ) {
    super(message);
  }
}

const blocked = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** An address a server must not be made to reach for a user: loopback, private, link-local, multicast… */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (!family) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** webcal:// is how Outlook and Google hand out these addresses: plain http(s) underneath. */
export function feedHttpUrl(raw: string): URL {
  const url = new URL(raw.replace(/^webcal(s?):/i, (_, s: string) => (s ? 'https:' : 'http:')));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FeedError('feed_address', 'A calendar feed is an http, https or webcal address');
  if (url.username || url.password) throw new FeedError('feed_address', 'A calendar feed address may not carry a user name or password');
  return url;
}

export function feedSource(url: URL): 'microsoft' | 'google' | 'ics' {
  const host = url.hostname.toLowerCase();
  if (/(^|\.)(outlook\.office365\.com|outlook\.office\.com|outlook\.live\.com)$/.test(host)) return 'microsoft';
  if (/(^|\.)google\.com$/.test(host)) return 'google';
  return 'ics';
}

/** DNS answers are checked where the connection is made, so a name cannot pass the check and then point elsewhere. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as unknown as LookupAddress[];
      const bad = !allowPrivate && list.some((a) => isPrivateAddress(a.address));
      if (bad || !list.length) return callback(new FeedError('feed_address', 'Calendar feeds must be on public internet addresses'), '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

function getOnce(url: URL, limits: FeedLimits, deadline: number): Promise<{ status: number; location?: string; body?: string }> {
  if (!limits.allowPrivateHosts && isIP(url.hostname.replace(/^\[|\]$/g, '')) && isPrivateAddress(url.hostname.replace(/^\[|\]$/g, ''))) {
    return Promise.reject(new FeedError('feed_address', 'Calendar feeds must be on public internet addresses'));
  }
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const req = get(url, { lookup: guardedLookup(limits.allowPrivateHosts), headers: { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'AcmeUC-calendar/1' }, timeout: Math.max(1, deadline - Date.now()) }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return resolve({ status, location: res.headers.location });
      }
      if (status !== 200) {
        res.resume();
        return reject(new FeedError('feed_unreachable', `The calendar server answered ${status}`));
      }
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > limits.maxBytes) {
        req.destroy();
        return reject(new FeedError('feed_invalid', 'The calendar is too large'));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limits.maxBytes) {
          req.destroy();
          reject(new FeedError('feed_invalid', 'The calendar is too large'));
        } else chunks.push(c);
      });
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(new FeedError('feed_unreachable', 'The calendar server did not answer in time')), Math.max(1, deadline - Date.now()));
    req.on('timeout', () => req.destroy(new FeedError('feed_unreachable', 'The calendar server did not answer in time')));
    req.on('error', (err) => reject(err instanceof FeedError ? err : new FeedError('feed_unreachable', `The calendar could not be read (${(err as NodeJS.ErrnoException).code ?? err.message})`)));
    req.on('close', () => clearTimeout(timer));
  });
}

/** The feed's text: redirects followed (each checked again), size and time bounded. */
export async function downloadFeed(raw: string, limits: FeedLimits = DEFAULT_FEED_LIMITS): Promise<string> {
  let url = feedHttpUrl(raw);
  const deadline = Date.now() + limits.timeoutMs;
  for (let hop = 0; hop <= limits.maxRedirects; hop++) {
    const res = await getOnce(url, limits, deadline);
    if (res.body !== undefined) return res.body;
    url = feedHttpUrl(new URL(res.location!, url).toString());
  }
  throw new FeedError('feed_unreachable', 'The calendar address redirects too often');
}

const text = (v: unknown): string => (typeof v === 'string' ? v : v && typeof v === 'object' && 'val' in v ? String((v as { val: unknown }).val) : '');
const LINK = /https?:\/\/[^\s<>"]+/;

/** The events of a feed with occurrences in [from, to), recurring ones expanded (node-ical applies EXDATE and overrides). */
export function parseFeed(body: string, from: Date, to: Date, maxEvents: number): { name: string | null; events: ExternalEvent[] } {
  if (!/BEGIN:VCALENDAR/i.test(body.slice(0, 2000))) throw new FeedError('feed_invalid', 'The address does not give an iCalendar (.ics) file');
  let parsed: ReturnType<typeof ical.sync.parseICS>;
  try {
    parsed = ical.sync.parseICS(body);
  } catch {
    throw new FeedError('feed_invalid', 'The calendar could not be parsed');
  }
  const cal = parsed.vcalendar as Record<string, unknown> | undefined;
  const name = text(cal?.['WR-CALNAME'] ?? cal?.['X-WR-CALNAME']) || null;
  const events: ExternalEvent[] = [];
  for (const item of Object.values(parsed)) {
    if (!item || (item as { type?: string }).type !== 'VEVENT') continue;
    const ev = item as VEvent;
    if (ev.status === 'CANCELLED' || !(ev.start instanceof Date)) continue;
    let instances: ReturnType<typeof ical.expandRecurringEvent>;
    try {
      instances = ical.expandRecurringEvent(ev, { from, to, expandOngoing: true });
    } catch {
      continue;
    }
    for (const inst of instances) {
      const start = inst.start;
      const end = inst.end && inst.end.getTime() > start.getTime() ? inst.end : new Date(start.getTime() + (inst.isFullDay ? 86_400_000 : 3_600_000));
      if (!(start < to && end > from)) continue;
      const e = inst.event;
      const location = text(e.location) || null;
      const description = text(e.description);
      events.push({
        uid: String(ev.uid ?? '').slice(0, 500),
        name: (text(inst.summary) || text(e.summary) || '(no title)').slice(0, 500),
        description: description.slice(0, 4000),
        location: location?.slice(0, 500) ?? null,
        url: (text((e as { url?: unknown }).url) || LINK.exec(location ?? '')?.[0] || LINK.exec(description)?.[0] || null)?.slice(0, 2000) ?? null,
        organizer: text(e.organizer).replace(/^mailto:/i, '').slice(0, 300) || null,
        start,
        end,
        isRecurring: inst.isRecurring,
      });
      if (events.length >= maxEvents) return { name, events };
    }
  }
  return { name, events };
}
