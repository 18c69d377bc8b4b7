import { MOBILE_CODE_RENEW_MARGIN_SECONDS } from '../../wire/mobile';

/** When the page asks for the next code: a margin before the shown one expires, and never in the past. */
export const renewDelayMs = (expiresAt: number, now: number): number => Math.max(0, expiresAt - now - MOBILE_CODE_RENEW_MARGIN_SECONDS * 1000);

/** The QR code's modules as one SVG path (one `M x y h1 v1 h-1 z` square per dark module): small, crisp at any size. */
export function qrPath(modules: { size: number; get(row: number, col: number): number | boolean }): string {
  let d = '';
  for (let r = 0; r < modules.size; r++) for (let c = 0; c < modules.size; c++) if (modules.get(r, c)) d += `M${c} ${r}h1v1h-1z`;
  return d;
}
