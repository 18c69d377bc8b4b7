import { describe, expect, it } from 'vitest';
import { messageTime } from './messageTime';

describe('messageTime', () => {
  const now = new Date(2026, 10, 24, 15, 30);
  it('shows hours and minutes for a message of today, the date too for an older one', () => {
    expect(messageTime(new Date(2026, 10, 24, 9, 5).getTime(), 'en-GB', now)).toBe('09:05');
    expect(messageTime(new Date(2026, 10, 20, 9, 5).getTime(), 'en-GB', now)).toBe('20 Nov, 09:05');
  });
  it('formats in the language asked for, each with its own format', () => {
    const ts = new Date(2026, 10, 20, 9, 5).getTime();
    expect(messageTime(ts, 'de', now)).toBe(new Intl.DateTimeFormat('de', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }).format(ts));
    expect(messageTime(ts, 'en-GB', now)).toBe('20 Nov, 09:05');
  });
});
