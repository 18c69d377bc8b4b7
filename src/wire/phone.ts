import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * How a number is shown, identically by the server (stored display names, sorting) and the client:
 * national format for North American numbers, international for the rest; extensions and short
 * codes stay as typed. Not re-exported from the wire index: the client loads it with the screens
 * that format numbers, not at boot.
 */
export function formatPhone(n: string): string {
  let shown = formatted.get(n);
  if (shown === undefined) {
    // A bound, not an LRU: lists show the same few hundred numbers while the user types and scrolls.
    if (formatted.size >= FORMATTED_MAX) formatted.clear();
    formatted.set(n, (shown = format(n)));
  }
  return shown;
}

/**
 * Parsing a number takes libphonenumber tens of microseconds: a list row draws its number on every
 * keystroke of a search (twice, with its label), so each number is formatted once.
 */
const formatted = new Map<string, string>();
const FORMATTED_MAX = 5000;

function format(n: string): string {
  const trimmed = n.trim();
  if (/^\d{1,6}$/.test(trimmed)) return trimmed;
  const parsed = parsePhoneNumberFromString(trimmed, 'US');
  if (!parsed || !parsed.isPossible()) return trimmed;
  return parsed.countryCallingCode === '1' ? parsed.formatNational() : parsed.formatInternational();
}
