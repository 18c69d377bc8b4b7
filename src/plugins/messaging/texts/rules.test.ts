import { describe, expect, it } from 'vitest';
import { ATTACHMENT_MAX_TOTAL_BYTES, attachmentProblem, CUTOFF_DEFAULT_DAYS, cutoffsComplete, mediaKindOf, pastCutoff } from '../../../wire/texts';
import { counter, enterSends, errorKey, formatNumber, newTextProblem, recipients, textBody, usNumber } from './rules';

const SENDER = '+14155550101';
const none = { sender: SENDER, currentUser: [] as string[] };

describe('texts: length, recipients, body and attachment rules', () => {
  it('at most 1000 characters; the counter shows within 100 of the limit; Enter sends unless over it', () => {
    expect(counter(0)).toBeNull();
    expect(counter(899)).toBeNull();
    expect(counter(900)).toBe(100);
    expect(counter(1000)).toBe(0);
    expect(counter(1003)).toBe(-3);
    expect(enterSends(1000)).toBe(true);
    expect(enterSends(1001)).toBe(false);
    expect(newTextProblem(recipients('2125550123', [], none, []), 'x'.repeat(1001), false)).toBe('tooLong');
  });

  it('empty input sends a single space (with media); otherwise trimmed text, or media, is required', () => {
    expect(textBody('', true)).toBe(' ');
    expect(textBody('', false)).toBeNull();
    expect(textBody('   ', false)).toBeNull();
    expect(textBody('   ', true)).toBe(' ');
    expect(textBody('  hi \n', false)).toBe('hi');
  });

  it('manual recipients must be US numbers after stripping non-digits, else they are ignored', () => {
    expect(usNumber('(212) 555-0123')).toBe('+12125550123');
    expect(usNumber('1-212-555-0123')).toBe('+12125550123');
    expect(usNumber('+1 212.555.0123')).toBe('+12125550123');
    expect(usNumber('555-0123')).toBeNull();
    expect(usNumber('+44 7911 123456')).toBeNull();
    // A Canadian number shares +1 but is not a US number.
    expect(usNumber('416-555-0123')).toBeNull();
    const r = recipients('212 555 0123; hello, 12345, +44 7911 123456\n(310) 555-0177', [], none, []);
    expect(r.numbers).toEqual(['+12125550123', '+13105550177']);
    expect(r.ignored).toEqual(['hello', '12345', '+44 7911 123456']);
  });

  it('recipients exclude the sender’s own number and the current user, without duplicates', () => {
    const r = recipients('415-555-0101, 212-555-0123, (212) 555-0123, 617-555-0100', [], { sender: SENDER, currentUser: ['(617) 555-0100'] }, []);
    expect(r.numbers).toEqual(['+12125550123']);
    expect(newTextProblem(recipients('415 555 0101', [], none, []), 'hi', false)).toBe('recipientRequired');
  });

  it('banned numbers are rejected', () => {
    const r = recipients('415-555-0666, 212-555-0123', [], none, ['+14155550666']);
    expect(r.banned).toEqual(['+14155550666']);
    expect(newTextProblem(r, 'hi', false)).toBe('banned');
    expect(recipients('900-555-0199', [], none, []).banned).toEqual(['+19005550199']);
  });

  it('a new text needs a recipient and a message', () => {
    expect(newTextProblem(recipients('', [], none, []), 'hi', false)).toBe('recipientRequired');
    expect(newTextProblem(recipients('2125550123', [], none, []), '  ', false)).toBe('messageRequired');
    expect(newTextProblem(recipients('2125550123', [], none, []), '', true)).toBeNull();
    expect(newTextProblem(recipients('', ['+12125550123'], none, []), 'hi', false)).toBeNull();
  });

  it('attachments: allowed extensions in any case, the MMS feature on, at most 3670016 bytes in total', () => {
    expect(ATTACHMENT_MAX_TOTAL_BYTES).toBe(3670016);
    expect(mediaKindOf('Photo.JPG')).toBe('image');
    expect(mediaKindOf('clip.Mp4')).toBe('video');
    expect(mediaKindOf('notes.PDF')).toBe('file');
    expect(mediaKindOf('setup.exe')).toBeNull();
    expect(mediaKindOf('noextension')).toBeNull();
    expect(attachmentProblem([{ name: 'a.png', size: 10 }], true)).toBeNull();
    expect(attachmentProblem([{ name: 'a.png', size: 10 }], false)).toBe('mmsDisabled');
    expect(attachmentProblem([{ name: 'a.exe', size: 10 }], true)).toBe('extension');
    expect(attachmentProblem([{ name: 'a.png', size: 3670016 }], true)).toBeNull();
    expect(attachmentProblem([{ name: 'a.png', size: 3_000_000 }, { name: 'b.pdf', size: 670_017 }], true)).toBe('tooLarge');
    expect(attachmentProblem([], false)).toBeNull();
  });

  it('message cut-off per kind: 90 days by default, 730 marks no real message time (never cut off)', () => {
    const now = Date.parse('2026-11-24T00:00:00Z');
    const day = 86_400_000;
    expect(CUTOFF_DEFAULT_DAYS).toBe(90);
    expect(pastCutoff('sms', now - 89 * day, {}, now)).toBe(false);
    expect(pastCutoff('sms', now - 91 * day, {}, now)).toBe(true);
    expect(pastCutoff('group_sms', now - 10 * day, { group_sms: 7 }, now)).toBe(true);
    expect(pastCutoff('chat', now - 5000 * day, { chat: 730 }, now)).toBe(false);
    expect(pastCutoff('group_chat', now - 91 * day, { group_chat: null }, now)).toBe(true);
    expect(cutoffsComplete({ sms: 90, group_sms: 90, chat: 90 })).toBe(false);
    expect(cutoffsComplete({ sms: 90, group_sms: 90, chat: 90, group_chat: 730 })).toBe(true);
  });

  it('formats numbers with libphonenumber-js and maps server refusals to the screen’s errors', () => {
    expect(formatNumber('+12125550123')).toBe('(212) 555-0123');
    expect(formatNumber('+447911123456')).toBe('+44 7911 123456');
    expect(errorKey('attachments_too_large')).toBe('tooLarge');
    expect(errorKey('banned_number')).toBe('banned');
    expect(errorKey('mms_disabled')).toBe('mmsDisabled');
    expect(errorKey('content_mismatch')).toBe('extension');
    expect(errorKey(undefined)).toBe('sendFailed');
  });
});
