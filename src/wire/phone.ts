import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * How a number is shown, identically by the server (stored display names, sorting) and the client:
 * national format for North American numbers, international for the rest; extensions and short
 * codes stay as typed. Not re-exported from the wire index: the client loads it with the screens
 * that format numbers, not at boot.
 */
export function formatPhone(n: string): string {
  const trimmed = n.trim();
  if (/^\d{1,6}$/.test(trimmed)) return trimmed;
  const parsed = parsePhoneNumberFromString(trimmed, 'US');
  if (!parsed || !parsed.isPossible()) return trimmed;
  return parsed.countryCallingCode === '1' ? parsed.formatNational() : parsed.formatInternational();
}
