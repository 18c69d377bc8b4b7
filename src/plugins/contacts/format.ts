/** Phone formatting with libphonenumber-js (loaded with the screen, not at boot). */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { contactName, isExtensionNumber, type NameParts, type PhoneNumberWire } from '../../wire/contacts';
import { formatPhone } from '../../wire/phone';

export { formatPhone };

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
