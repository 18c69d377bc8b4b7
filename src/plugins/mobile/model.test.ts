import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import { MOBILE_CODE_RENEW_MARGIN_SECONDS, MOBILE_CODE_TTL_SECONDS, mobileSignInLink } from '../../wire/mobile';
import { qrPath, renewDelayMs } from './model';

describe('mobile download page rules', () => {
  it('renews the code before it expires, at once when it already has', () => {
    const now = 1_000_000;
    expect(renewDelayMs(now + MOBILE_CODE_TTL_SECONDS * 1000, now)).toBe((MOBILE_CODE_TTL_SECONDS - MOBILE_CODE_RENEW_MARGIN_SECONDS) * 1000);
    expect(renewDelayMs(now + 3000, now)).toBe(0);
    expect(renewDelayMs(now - 5000, now)).toBe(0);
  });

  it('the QR code carries the sign-in link with the server and the code, escaped', () => {
    const link = mobileSignInLink('https://uc.example.com:8443', 'abc_DEF-123');
    expect(link).toBe('ucclient://sign-in?server=https%3A%2F%2Fuc.example.com%3A8443&code=abc_DEF-123');
    const qr = QRCode.create(link, { errorCorrectionLevel: 'M' });
    const d = qrPath(qr.modules);
    // One square per dark module; the three finder patterns alone have 3 × 33 dark modules.
    const squares = d.match(/M/g)!.length;
    expect(squares).toBe(qr.modules.data.filter(Boolean).length);
    expect(squares).toBeGreaterThan(99);
    expect(d.startsWith('M0 0h1v1h-1z')).toBe(true);
  });
});
