import { describe, expect, it } from 'vitest';
import { displayName, formatDuration, formatFullDateTime, formatListTime, formatPhone } from './format';

// ICU versions differ in using a narrow no-break space before AM/PM.
const spaces = (s: string) => s.replace(/\s/g, ' ');

describe('formatDuration', () => {
  it('shows seconds under a minute, otherwise rounded minutes', () => {
    expect(formatDuration(0, 'en')).toBe('0 sec');
    expect(formatDuration(45, 'en')).toBe('45 sec');
    expect(formatDuration(59, 'en')).toBe('59 sec');
    expect(formatDuration(60, 'en')).toBe('1 min');
    expect(formatDuration(185, 'en')).toBe('3 min');
    expect(formatDuration(215, 'en')).toBe('4 min');
  });

  it('has a long form and follows the language', () => {
    expect(formatDuration(185, 'en', 'long')).toBe('3 minutes');
    expect(formatDuration(1, 'en', 'long')).toBe('1 second');
    expect(formatDuration(45, 'de')).toBe('45 Sek.');
  });
});

describe('formatListTime', () => {
  const now = new Date('2024-03-06T15:00:00Z'); // a Wednesday
  const opts = { locale: 'en', now, timeZone: 'UTC' };
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

  it('is relative within the last hour', () => {
    expect(formatListTime(ago(20_000), opts)).toBe('Now');
    expect(formatListTime(ago(2 * 60_000), opts)).toBe('2 minutes ago');
    expect(formatListTime(ago(59 * 60_000), opts)).toBe('59 minutes ago');
  });

  it('tolerates a server clock slightly ahead', () => {
    expect(formatListTime(new Date(now.getTime() + 30_000).toISOString(), opts)).toBe('Now');
  });

  it('shows the time earlier today', () => {
    expect(spaces(formatListTime('2024-03-06T09:05:00Z', opts))).toBe('9:05 AM');
  });

  it('says Yesterday, then the weekday within a week, then the date', () => {
    expect(formatListTime('2024-03-05T22:00:00Z', opts)).toBe('Yesterday');
    expect(formatListTime('2024-03-04T10:00:00Z', opts)).toBe('Monday');
    expect(formatListTime('2024-02-29T10:00:00Z', opts)).toBe('Thursday');
    expect(formatListTime('2024-02-28T10:00:00Z', opts)).toBe('Feb 28, 2024');
  });

  it('counts calendar days in the user’s zone', () => {
    // 23:30 UTC on the 5th is already the 6th in Berlin: today, not yesterday.
    expect(spaces(formatListTime('2024-03-05T23:30:00Z', { ...opts, timeZone: 'Europe/Berlin' }))).toBe('12:30 AM');
  });

  it('speaks the current language', () => {
    expect(formatListTime('2024-03-05T22:00:00Z', { ...opts, locale: 'fr' })).toBe('Hier');
    expect(formatListTime('2024-03-04T10:00:00Z', { ...opts, locale: 'de' })).toBe('Montag');
  });

  it('returns an unreadable time unchanged', () => {
    expect(formatListTime('garbage', opts)).toBe('garbage');
  });
});

describe('formatFullDateTime', () => {
  it('gives the full date and time', () => {
    expect(spaces(formatFullDateTime('2024-03-05T14:30:00Z', 'en', 'UTC'))).toBe('Tuesday, March 5, 2024 at 2:30 PM');
  });
});

describe('formatPhone and displayName', () => {
  it('formats North American numbers and leaves others alone', () => {
    expect(formatPhone('4155550142')).toBe('(415) 555-0142');
    expect(formatPhone('+14155550142')).toBe('+1 (415) 555-0142');
    expect(formatPhone('14155550142')).toBe('+1 (415) 555-0142');
    expect(formatPhone('1001')).toBe('1001');
    expect(formatPhone('+442071234567')).toBe('+442071234567');
    expect(formatPhone('sip:ada@example.com')).toBe('sip:ada@example.com');
  });

  it('prefers a contact, then the caller name, then the number', () => {
    expect(displayName({ cnam: 'ADA L', phoneNumber: '4155550142' }, 'Ada Lovelace')).toBe('Ada Lovelace');
    expect(displayName({ cnam: 'ADA L', phoneNumber: '4155550142' })).toBe('ADA L');
    expect(displayName({ cnam: null, phoneNumber: '4155550142' })).toBe('(415) 555-0142');
  });
});
