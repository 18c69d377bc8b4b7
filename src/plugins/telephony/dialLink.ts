/**
 * What a `tel:` or `sip:` link asks to call, as the dial string the phone takes: a tel: number
 * keeps its digits, `+`, `*`, `#` and the `,` pauses (RFC 3966 visual separators and parameters
 * are dropped); a sip: address is kept whole. Null when the link names nothing callable.
 */
export function dialLinkTarget(link: string): string | null {
  const text = link.trim();
  if (/^sips?:[^@\s]+(@[^\s]+)?$/i.test(text)) return text;
  const tel = /^tel:([^;]*)/i.exec(text)?.[1] ?? (/^[+0-9(). \-*#,]+$/.test(text) ? text : null);
  if (tel === null) return null;
  const number = decodeURIComponent(tel).replace(/[^0-9+*#,]/g, '');
  return /[0-9*#]/.test(number) ? number : null;
}
