/** Phone formatting with libphonenumber-js (loaded with the screen, not at boot). */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { contactName, isExtensionNumber, type NameParts, type PhoneNumberWire } from '../../wire/contacts';

/** National format for North American numbers, international for the rest; extensions and short codes stay as typed. */
export function formatPhone(n: string): string {
  const trimmed = n.trim();
  if (/^\d{1,6}$/.test(trimmed)) return trimmed;
  const parsed = parsePhoneNumberFromString(trimmed, 'US');
  if (!parsed || !parsed.isPossible()) return trimmed;
  return parsed.countryCallingCode === '1' ? parsed.formatNational() : parsed.formatInternational();
}

/** The E.164 (or short) form dialled for a number. */
export function dialable(n: string): string {
  const parsed = parsePhoneNumberFromString(n.trim(), 'US');
  return parsed?.isPossible() ? parsed.number : n.replace(/[^\d+*#]/g, '');
}

export function displayName(c: NameParts, noName: string): string {
  return contactName(c, formatPhone, noName);
}

export function phoneLabel(p: Pick<PhoneNumberWire, 'type' | 'number' | 'custom_type'>): 'extension' | PhoneNumberWire['type'] {
  return isExtensionNumber(p) ? 'extension' : p.type;
}
