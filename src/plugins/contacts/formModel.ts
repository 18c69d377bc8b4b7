/**
 * The contact form's rules, apart from React: modes, the draft the form edits, save normalisation
 * and validation (the same problem codes the server answers with).
 */
import {
  contactProblems,
  digitsOnly,
  isValidEmail,
  isValidPhone,
  stateAllowed,
  type ContactInput,
  type ContactProblemCode,
  type ContactWire,
  type PhoneNumberWire,
  type ProfileProblemCode,
} from '../../wire/contacts';

import type { FormMode } from './modes';
export { FORM_MODES, isFormMode, type FormMode } from './modes';

/** The modes that edit a user (the own profile, or a colleague by an administrator) rather than a personal contact. */
export const isProfileMode = (mode: FormMode): mode is 'EDIT_PROFILE' | 'EDIT_USER' => mode === 'EDIT_PROFILE' || mode === 'EDIT_USER';

/** The e-mail marked primary (the profile's own address); the first one when none is. */
export function primaryEmailIndex(emails: readonly Pick<EmailDraft, 'isDefault'>[]): number {
  return Math.max(0, emails.findIndex((e) => e.isDefault));
}

export interface PhoneDraft {
  number: string;
  extension: string;
  type: PhoneNumberWire['type'];
  customType: string;
  sourceId: number | null;
  isDefault: boolean;
  isPrimary: boolean;
  callerId: boolean;
  /** `extension`: a user's extension in the profile modes, shown but assigned by the organisation. */
  source?: 'personal' | 'extension';
}
export interface EmailDraft {
  id: number | null;
  email: string;
  type: string;
  customType: string;
  isDefault: boolean;
  source: ContactWire['source'];
}
export interface AddressDraft {
  addressId: number | null;
  type: string;
  street1: string;
  street2: string;
  aptNumber: string;
  city: string;
  state: string;
  /** What the user typed: `12345` or `12345-6789`. */
  zip: string;
  country: string;
  county: string;
  source: ContactWire['source'];
}
export interface ImDraft {
  id: number | null;
  type: string;
  name: string;
}
export interface ContactDraft {
  firstName: string;
  lastName: string;
  /** A user's profile only (personal contacts have none). */
  alias: string;
  company: string;
  title: string;
  notes: string;
  phones: PhoneDraft[];
  emails: EmailDraft[];
  addresses: AddressDraft[];
  ims: ImDraft[];
  birthday: { day: string; month: string; year: string };
}

let tempId = 0;
/** New e-mails get negative ids until the server gives them real ones. */
export const nextTempId = () => --tempId;

export const emptyPhone = (primary = false): PhoneDraft => ({ number: '', extension: '', type: 'mobile', customType: '', sourceId: nextTempId(), isDefault: primary, isPrimary: primary, callerId: false });
export const emptyEmail = (primary = false): EmailDraft => ({ id: nextTempId(), email: '', type: 'work', customType: '', isDefault: primary, source: 'personal' });
export const emptyAddress = (): AddressDraft => ({ addressId: nextTempId(), type: 'work', street1: '', street2: '', aptNumber: '', city: '', state: '', zip: '', country: '', county: '', source: 'personal' });
export const emptyIm = (): ImDraft => ({ id: nextTempId(), type: '', name: '' });

export function emptyDraft(): ContactDraft {
  return {
    firstName: '', lastName: '', alias: '', company: '', title: '', notes: '',
    phones: [emptyPhone(true)], emails: [emptyEmail(true)], addresses: [], ims: [],
    birthday: { day: '', month: '', year: '' },
  };
}

export function draftFromContact(c: ContactWire): ContactDraft {
  return {
    firstName: c.first_name, lastName: c.last_name, alias: '', company: c.company, title: c.title, notes: c.notes,
    phones: c.phone_numbers.map((p) => ({
      number: p.number ?? '', extension: p.extension ?? '', type: p.type, customType: p.custom_type ?? '', sourceId: p.source_id,
      isDefault: p.is_default, isPrimary: p.is_primary, callerId: p.caller_id,
    })),
    emails: c.emails.map((e) => ({ id: e.id, email: e.email, type: e.type, customType: e.custom_type ?? '', isDefault: e.is_default, source: e.source })),
    addresses: c.addresses.map((a) => ({
      addressId: a.address_id, type: a.type, street1: a.street_1, street2: a.street_2, aptNumber: a.apt_number, city: a.city, state: a.state,
      zip: a.zip_plus_four ? `${a.zip_code}-${a.zip_plus_four}` : a.zip_code, country: a.country, county: a.county, source: a.source,
    })),
    ims: c.instant_messengers.map((m) => ({ ...m })),
    birthday: c.birthday ? { day: String(c.birthday.day), month: String(c.birthday.month), year: String(c.birthday.year) } : { day: '', month: '', year: '' },
  };
}

// ---- field helpers ---------------------------------------------------------------------------------

/** Numbers-only inputs strip everything that is not a digit. */
export const numbersOnly = digitsOnly;

/** A 10-character zip without a hyphen at position 6 gets one (`123456789` typed with a stray character, `12345 6789`). */
export function formatZipInput(value: string): string {
  if (value.length === 10 && value[5] !== '-') {
    const d = digitsOnly(value);
    return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5, 9)}` : d;
  }
  return value;
}

/** Zip text splits into zipCode and zipPlusFour at a hyphen. */
export function splitZip(value: string): { zipCode: string; zipPlusFour: string } {
  const v = formatZipInput(value.trim());
  const i = v.indexOf('-');
  return i < 0 ? { zipCode: v, zipPlusFour: '' } : { zipCode: v.slice(0, i), zipPlusFour: v.slice(i + 1) };
}

/** Choosing a country other than the USA (or none) clears the state, which is then disabled. */
export function withCountry(a: AddressDraft, country: string): AddressDraft {
  return { ...a, country, state: stateAllowed(country) ? a.state : '' };
}
export const stateEnabled = (a: Pick<AddressDraft, 'country'>) => stateAllowed(a.country);

/** Marking one e-mail primary clears the others. */
export function markPrimaryEmail(emails: readonly EmailDraft[], index: number): EmailDraft[] {
  return emails.map((e, i) => ({ ...e, isDefault: i === index }));
}
export function markPrimaryPhone(phones: readonly PhoneDraft[], index: number): PhoneDraft[] {
  return phones.map((p, i) => ({ ...p, isPrimary: i === index, isDefault: i === index }));
}

// ---- save ------------------------------------------------------------------------------------------

const positiveOrNull = (id: number | null) => (id !== null && id > 0 ? id : null);

/**
 * The save normalisation: drop phones with neither number nor extension; keep only personal,
 * non-empty e-mails; messengers need name and type; addresses kept if street1 or personal;
 * a birthday needs day, month and year, else null; ids ≤ 0 are sent as null.
 */
export function toInput(d: ContactDraft): ContactInput {
  const b = d.birthday;
  const day = Number(b.day);
  const month = Number(b.month);
  const year = Number(b.year);
  return {
    first_name: d.firstName.trim(),
    last_name: d.lastName.trim(),
    company: d.company.trim(),
    title: d.title.trim(),
    notes: d.notes,
    time_zone: null,
    birthday: b.day && b.month && b.year ? { day, month, year } : null,
    phone_numbers: d.phones
      .filter((p) => p.number.trim() || p.extension.trim())
      .map((p) => ({
        number: p.number.trim() || null,
        extension: p.extension.trim() || null,
        type: p.type,
        custom_type: p.type === 'custom' ? p.customType.trim() || null : null,
        source: 'personal',
        source_id: positiveOrNull(p.sourceId),
        is_default: p.isDefault,
        is_primary: p.isPrimary,
        caller_id: p.callerId,
      })),
    emails: d.emails
      .filter((e) => e.source === 'personal' && e.email.trim())
      .map((e) => ({ id: positiveOrNull(e.id), email: e.email.trim(), type: e.type, custom_type: e.type === 'custom' ? e.customType.trim() || 'Custom' : null, is_default: e.isDefault, source: 'personal' })),
    addresses: d.addresses
      .filter((a) => a.street1.trim() || a.source === 'personal')
      .map((a) => {
        const { zipCode, zipPlusFour } = splitZip(a.zip);
        return {
          address_id: positiveOrNull(a.addressId), type: a.type, street_1: a.street1.trim(), street_2: a.street2.trim(), apt_number: a.aptNumber.trim(),
          city: a.city.trim(), state: stateAllowed(a.country) ? a.state : '', zip_code: zipCode, zip_plus_four: zipPlusFour, country: a.country, county: a.county.trim(), source: 'personal',
        };
      }),
    instant_messengers: d.ims.filter((m) => m.name.trim() || m.type.trim()).map((m) => ({ id: positiveOrNull(m.id), type: m.type.trim(), name: m.name.trim() })),
  };
}

export type FieldErrors = Record<string, ProfileProblemCode>;

/** Maps a wire path (`phone_numbers.0.number`) to the form field that shows it. */
export function problemField(path: string): string {
  return path
    .replace(/^phone_numbers\.(\d+)\.number$/, 'phones.$1.number')
    .replace(/^phone_numbers\.(\d+)\.extension$/, 'phones.$1.extension')
    .replace(/^emails\.(\d+)\.email$/, 'emails.$1.email')
    .replace(/^instant_messengers\.(\d+)\.name$/, 'ims.$1.name')
    .replace(/^addresses\.(\d+)\.(state|zip_code|zip_plus_four)$/, (_m, i: string, f: string) => `addresses.${i}.${f === 'state' ? 'state' : 'zip'}`);
}

/**
 * Field errors of the draft in a mode. Paths refer to the draft's own rows (phones.N…) and are
 * computed on the draft before normalisation drops empty rows, so an error points at what was typed.
 */
export function validateDraft(d: ContactDraft, mode: FormMode, avatar?: File | null): FieldErrors {
  const errors: FieldErrors = {};
  if (mode === 'AVATAR') {
    if (!avatar) errors.avatar = 'required';
    else if (!avatar.type.startsWith('image/')) errors.avatar = 'not_image' as ContactProblemCode;
    return errors;
  }
  const profile = isProfileMode(mode);
  // The profile (EDIT_PROFILE) requires first name, last name and e-mail; a user edited by an
  // administrator keeps the same three, because the server never lets a user lose their name or e-mail.
  if (profile) {
    if (!d.firstName.trim()) errors.firstName = 'required';
    if (!d.lastName.trim()) errors.lastName = 'required';
    const primary = primaryEmailIndex(d.emails);
    if (!d.emails[primary]?.email.trim()) errors[`emails.${primary}.email`] = 'required';
  }
  // Contact-level rules on the normalised input; row rules on the draft rows (so indexes match the inputs).
  // A user's rows are theirs to edit here, so the rules see them as a personal contact's.
  const input = toInput(profile ? { ...d, emails: d.emails.map((e) => ({ ...e, source: 'personal' })), addresses: d.addresses.map((a) => ({ ...a, source: 'personal' })) } : d);
  for (const p of contactProblems(input)) {
    if (p.code === 'identity_required' && profile) continue;
    if (p.path === '(root)' || p.path === 'birthday' || p.path.startsWith('addresses.')) errors[problemField(p.path)] = p.code;
  }
  d.phones.forEach((p, i) => {
    if (p.source === 'extension') return;
    if (p.number.trim() && !isValidPhone(p.number)) errors[`phones.${i}.number`] = 'phone_invalid';
    if (p.extension.trim() && !/^\d+$/.test(p.extension.trim())) errors[`phones.${i}.extension`] = 'extension_invalid';
  });
  d.emails.forEach((e, i) => {
    if (e.email.trim() && !isValidEmail(e.email)) errors[`emails.${i}.email`] = 'email_invalid';
  });
  d.ims.forEach((m, i) => {
    if ((m.name.trim() || m.type.trim()) && !(m.name.trim() && m.type.trim())) errors[`ims.${i}.name`] = 'im_incomplete';
  });
  const b = d.birthday;
  if ((b.day || b.month || b.year) && !(b.day && b.month && b.year)) errors.birthday = 'birthday_invalid';
  if (mode === 'ADD_PHONE' && !d.phones.some((p) => p.number.trim() || p.extension.trim())) errors['phones.0.number'] = 'phone_empty';
  return errors;
}

/** Errors show after a submit attempt, or once a field was touched and is invalid. */
export function visibleError(errors: FieldErrors, field: string, state: { submitted: boolean; touched: ReadonlySet<string> }): ProfileProblemCode | undefined {
  const e = errors[field];
  return e && (state.submitted || state.touched.has(field)) ? e : undefined;
}

export const isDirty = (initial: ContactDraft, current: ContactDraft) => JSON.stringify(initial) !== JSON.stringify(current);
