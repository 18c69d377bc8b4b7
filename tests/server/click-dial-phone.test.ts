/** How the API reads the click-dial phone (baresip 1.0): its call list, and why a desk leg ended. */
import { describe, expect, it } from 'vitest';
import { lineOf, outcomeOfClose } from '../../server/calls/click-dial';

describe('click-dial phone', () => {
  it('finds a call by the URI it was dialled with', () => {
    const listing = '\n--- Active calls (2) ---\n  [line 1]  0:00:03  ESTABLISHED             sip:1005@uc.local;device=desk;cd=aa\n> [line 2]  0:00:00  OUTGOING                sip:1006@uc.local;device=desk;cd=bb\n\n';
    expect(lineOf(listing, 'sip:1006@uc.local;device=desk;cd=bb')).toBe(2);
    expect(lineOf(listing, 'sip:1005@uc.local;device=desk;cd=aa')).toBe(1);
    expect(lineOf(listing, 'sip:1005@uc.local;device=desk;cd=cc')).toBeNull();
  });

  it('tells no phone, no answer and a decline apart', () => {
    expect(outcomeOfClose('480 No Desk Phone')).toBe('no_device');
    expect(outcomeOfClose('408 Request Timeout')).toBe('no_answer');
    expect(outcomeOfClose('486 Busy Here')).toBe('declined');
    expect(outcomeOfClose('603 Decline')).toBe('declined');
    expect(outcomeOfClose('Connection reset by peer')).toBe('failed');
    expect(outcomeOfClose(undefined)).toBe('failed');
  });
});
