import { describe, expect, it } from 'vitest';
import { dialLinkTarget } from './dialLink';

describe('phone links', () => {
  it('a tel: link keeps digits, +, *, # and pauses; separators and parameters go', () => {
    expect(dialLinkTarget('tel:+1-415-555-0142')).toBe('+14155550142');
    expect(dialLinkTarget('tel:+1%20(415)%20555.0142;ext=12')).toBe('+14155550142');
    expect(dialLinkTarget('tel:1002')).toBe('1002');
    expect(dialLinkTarget('TEL:18005551234,,1')).toBe('18005551234,,1');
  });
  it('a sip: address is called as it is', () => {
    expect(dialLinkTarget('sip:1003@uc.local')).toBe('sip:1003@uc.local');
    expect(dialLinkTarget('sips:bob@example.com')).toBe('sips:bob@example.com');
  });
  it('anything else is not callable', () => {
    expect(dialLinkTarget('')).toBeNull();
    expect(dialLinkTarget('tel:')).toBeNull();
    expect(dialLinkTarget('mailto:bob@example.com')).toBeNull();
    expect(dialLinkTarget('javascript:alert(1)')).toBeNull();
  });
});
