import { describe, expect, it } from 'vitest';
import { clockText, DAY_MS, FEED_CALL_LIMIT, feedTime, mergeFeed, type CallItem, type MessageItem, type VoicemailItem } from './model';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const vm = (id: string, at: number): VoicemailItem => ({ kind: 'voicemail', key: `voicemail:${id}`, id, name: `vm ${id}`, at, unread: true });
const call = (id: string, at: number): CallItem => ({ kind: 'call', key: `call:${id}`, id, name: `call ${id}`, at, direction: 'in' });
const msg = (id: string, at: number): MessageItem => ({ kind: 'message', key: `message:${id}`, name: `msg ${id}`, at, text: 'hi', own: false, path: `/chat/${id}` });

describe('mergeFeed', () => {
  it('merges the three sources newest first', () => {
    const feed = mergeFeed({ voicemail: [vm('a', NOW - 3000)], calls: [call('b', NOW - 1000), call('c', NOW - 5000)], messages: [msg('d', NOW - 2000)] }, NOW);
    expect(feed.map((i) => i.key)).toEqual(['call:b', 'message:d', 'voicemail:a', 'call:c']);
  });

  it('keeps calls of the last 7 days only', () => {
    const feed = mergeFeed({ calls: [call('new', NOW - 7 * DAY_MS + 1000), call('old', NOW - 7 * DAY_MS - 1000)] }, NOW);
    expect(feed.map((i) => i.key)).toEqual(['call:new']);
  });

  it('keeps the newest 50 calls, whatever order they came in', () => {
    const calls = Array.from({ length: 70 }, (_, i) => call(String(i), NOW - i * 60_000)).reverse();
    const feed = mergeFeed({ calls }, NOW);
    expect(feed).toHaveLength(FEED_CALL_LIMIT);
    expect(feed[0]!.key).toBe('call:0');
    expect(feed.at(-1)!.key).toBe('call:49');
  });

  it('does not let the call limit push out voicemail or messages', () => {
    const calls = Array.from({ length: 60 }, (_, i) => call(String(i), NOW - i * 1000));
    const feed = mergeFeed({ calls, voicemail: [vm('v', NOW - DAY_MS)], messages: [msg('m', NOW - 2 * DAY_MS)] }, NOW);
    expect(feed).toHaveLength(52);
    expect(feed.slice(-2).map((i) => i.key)).toEqual(['voicemail:v', 'message:m']);
  });

  it('shows an item once, and puts items without a valid time last', () => {
    const feed = mergeFeed({ messages: [msg('x', NaN), msg('m', NOW - 10), msg('m', NOW - 10)], voicemail: [vm('v', NOW - 20)] }, NOW);
    expect(feed.map((i) => i.key)).toEqual(['message:m', 'voicemail:v', 'message:x']);
  });

  it('is empty with no sources', () => {
    expect(mergeFeed({}, NOW)).toEqual([]);
  });
});

describe('clockText', () => {
  const at = new Date('2026-11-27T23:30:00Z');

  it('reads the time and the day in the user zone', () => {
    expect(clockText(at, 'en-US', 'America/New_York')).toMatchObject({ time: '6:30 PM', date: 'Friday, November 27, 2026' });
    // Already the next day in Tokyo.
    expect(clockText(at, 'en-US', 'Asia/Tokyo')).toMatchObject({ time: '8:30 AM', date: 'Saturday, November 28, 2026' });
    expect(clockText(at, 'en-US', 'Asia/Kolkata').time).toBe('5:00 AM');
  });

  it('writes them in the user language', () => {
    const c = clockText(at, 'de', 'Europe/Berlin');
    expect(c.time).toBe('00:30');
    expect(c.date).toBe('Samstag, 28. November 2026');
    expect(c.zone).toMatch(/Mitteleuropäische/);
    expect(clockText(at, 'ar', 'Asia/Dubai').time).toBe('3:30 ص');
  });

  it('names the zone', () => {
    expect(clockText(at, 'en-US', 'Europe/London').zone).toBe('Greenwich Mean Time');
  });
});

describe('feedTime', () => {
  it('shows the time alone for today, and the day before that, in the zone', () => {
    expect(feedTime(NOW - 3600_000, NOW, 'en-US', 'UTC')).toBe('11:00 AM');
    expect(feedTime(NOW - DAY_MS, NOW, 'en-US', 'UTC')).toMatch(/Thu, Nov 26.*12:00/);
    // 10:00 UTC is today in London, but 23:00 of the day before in Auckland, where it is already 01:00 on the 28th.
    expect(feedTime(NOW - 2 * 3600_000, NOW, 'en-US', 'Europe/London')).toBe('10:00 AM');
    expect(feedTime(NOW - 2 * 3600_000, NOW, 'en-US', 'Pacific/Auckland')).toMatch(/Fri, Nov 27.*11:00 PM/);
  });
});
