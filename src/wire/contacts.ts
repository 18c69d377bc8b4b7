import * as z from 'zod/mini';
import { Int4, queryInt } from './common';
import { CONTACT_GROUPS, DEFAULT_CONTACT_GROUP } from './contactGroups';

/*
 * Contacts: one source of truth for the wire shapes and for the validation rules the client's form
 * and the server both apply (the server answers 400 with the same problem codes the form shows).
 */

export const CONTACT_SOURCES = ['User', 'personal', 'google', 'microsoft', 'extension'] as const;
export const ContactSource = z.enum(CONTACT_SOURCES);
export type ContactSource = z.infer<typeof ContactSource>;

export { CONTACT_GROUPS, CONTACTS_REFRESH_MS, DEFAULT_CONTACT_GROUP } from './contactGroups';
export const ContactGroup = z.enum(CONTACT_GROUPS);
export type ContactGroup = z.infer<typeof ContactGroup>;

export const PHONE_TYPES = ['work', 'home', 'fax', 'custom', 'other', 'mobile', 'E911'] as const;
export const PhoneType = z.enum(PHONE_TYPES);
export const EMAIL_TYPES = ['work', 'home', 'other', 'custom'] as const;
export const ADDRESS_TYPES = ['work', 'home', 'other'] as const;
export const IM_TYPES = ['xmpp', 'skype', 'teams', 'slack', 'other'] as const;

/** Limits (characters) shared by the form's maxLength and the server's schema. */
export const CONTACT_LIMITS = { name: 100, company: 200, title: 200, notes: 4000, email: 254, phone: 32, extension: 10, street: 200, city: 100, zip: 10, im: 200 } as const;
/** Avatars: images only, at most this many bytes. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** External (Google, Microsoft) contacts come 250 a page; a copy-link confirmation reverts after 3 s. */
export const EXTERNAL_PAGE_SIZE = 250;
export const COPY_LINK_RESET_MS = 3000;
/** An extension is a work number shorter than this many digits. */
export const EXTENSION_MAX_DIGITS = 5;

const str = (max: number) => z.string().check(z.maxLength(max));

export const PhoneNumberWire = z.object({
  number: z.nullable(str(CONTACT_LIMITS.phone)),
  extension: z.nullable(str(CONTACT_LIMITS.extension)),
  type: PhoneType,
  custom_type: z.nullable(str(60)),
  source: ContactSource,
  source_id: z.nullable(Int4),
  is_default: z.boolean(),
  is_primary: z.boolean(),
  caller_id: z.boolean(),
  /** Server-computed display form (libphonenumber-js); ignored on input. */
  formatted_phone_number: z.optional(z.nullable(z.string())),
});
export type PhoneNumberWire = z.infer<typeof PhoneNumberWire>;

export const EmailWire = z.object({
  id: z.nullable(Int4),
  email: str(CONTACT_LIMITS.email),
  type: z.string().check(z.maxLength(30)),
  custom_type: z.nullable(str(60)),
  is_default: z.boolean(),
  source: ContactSource,
});
export type EmailWire = z.infer<typeof EmailWire>;

export const AddressWire = z.object({
  address_id: z.nullable(Int4),
  type: z.string().check(z.maxLength(30)),
  street_1: str(CONTACT_LIMITS.street),
  street_2: str(CONTACT_LIMITS.street),
  apt_number: str(30),
  city: str(CONTACT_LIMITS.city),
  state: str(2),
  zip_code: str(5),
  zip_plus_four: str(4),
  country: str(3),
  county: str(CONTACT_LIMITS.city),
  source: ContactSource,
});
export type AddressWire = z.infer<typeof AddressWire>;

export const InstantMessengerWire = z.object({
  id: z.nullable(Int4),
  type: str(30),
  name: str(CONTACT_LIMITS.im),
});
export type InstantMessengerWire = z.infer<typeof InstantMessengerWire>;

export const BirthdayWire = z.object({ day: z.int(), month: z.int(), year: z.int() });
export type BirthdayWire = z.infer<typeof BirthdayWire>;

/** What a client sends to create or replace a personal contact. */
export const ContactInput = z.object({
  first_name: str(CONTACT_LIMITS.name),
  last_name: str(CONTACT_LIMITS.name),
  company: str(CONTACT_LIMITS.company),
  title: str(CONTACT_LIMITS.title),
  notes: str(CONTACT_LIMITS.notes),
  time_zone: z.nullable(str(64)),
  favorite: z.optional(z.boolean()),
  birthday: z.nullable(BirthdayWire),
  phone_numbers: z.array(PhoneNumberWire).check(z.maxLength(50)),
  emails: z.array(EmailWire).check(z.maxLength(50)),
  addresses: z.array(AddressWire).check(z.maxLength(20)),
  instant_messengers: z.array(InstantMessengerWire).check(z.maxLength(20)),
});
export type ContactInput = z.infer<typeof ContactInput>;

export const ContactWire = z.object({
  /** `p<n>` for personal contacts, `u<n>` for the organisation's users. */
  id: z.string(),
  user_id: z.nullable(z.int()),
  source_id: z.nullable(z.string()),
  role_id: z.nullable(z.int()),
  role_name: z.nullable(z.string()),
  source: ContactSource,
  /** The display name after the fallback chain (server-computed, also the sort key). */
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  company: z.string(),
  title: z.string(),
  notes: z.string(),
  time_zone: z.nullable(z.string()),
  avatar_id: z.nullable(z.int()),
  avatar_href: z.nullable(z.string()),
  video_id: z.nullable(z.string()),
  favorite: z.boolean(),
  readonly: z.boolean(),
  hidden: z.boolean(),
  /** Presence (company contacts; null while presence is not known or hidden, as for the limited-access role). */
  status: z.nullable(z.string()),
  /** Custom presence text, if any. */
  state: z.nullable(z.string()),
  is_current_user: z.boolean(),
  /** A placeholder made up for a number that matches no contact (never stored). */
  is_dummy_contact: z.boolean(),
  in_meeting: z.boolean(),
  /** The number this contact is texted from, when messaging numbers are provisioned. */
  messaging_did: z.nullable(z.string()),
  messaging_did_label: z.nullable(z.string()),
  emails: z.array(EmailWire),
  addresses: z.array(AddressWire),
  instant_messengers: z.array(InstantMessengerWire),
  birthday: z.nullable(BirthdayWire),
  phone_numbers: z.array(PhoneNumberWire),
});
export type ContactWire = z.infer<typeof ContactWire>;

export const ContactPageWire = z.object({
  items: z.array(ContactWire),
  total: z.int(),
  offset: z.int(),
  limit: z.int(),
});
export type ContactPageWire = z.infer<typeof ContactPageWire>;

export const ContactListQuery = z.object({
  group: z._default(ContactGroup, DEFAULT_CONTACT_GROUP),
  search: z.optional(z.string().check(z.maxLength(200))),
  offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0),
  limit: queryInt(1, 500, 100),
});

/**
 * The compact directory the palette and caller-name lookups use: one tuple per contact,
 * `[id, name, numbers (space separated, digits and +), email, company, favorite 0|1, source]`.
 */
export type ContactIndexRow = [id: string, name: string, numbers: string, email: string, company: string, favorite: 0 | 1, source: ContactSource];
export interface ContactIndexWire {
  items: ContactIndexRow[];
}

export { indexRowFromTsv, indexRowToTsv } from './contactGroups';

export const FavoriteBody = z.object({ favorite: z.boolean() });

export const IntegrationState = z.object({ connected: z.boolean(), enabled: z.boolean() });
export const ContactIntegrationsWire = z.object({ google: IntegrationState, microsoft: IntegrationState });
export type ContactIntegrationsWire = z.infer<typeof ContactIntegrationsWire>;

export const AvatarResponse = z.object({ avatar_id: z.int(), avatar_href: z.string() });

// ---- rules shared by the form and the server ---------------------------------------------------

/** Optional +, an optional (parenthesised) 3-digit area code, 3 digits, then 4 to 6 digits; 911 and 933 too. */
export const PHONE_PATTERN = /^(?:\+?(?:\(\d{3}\)|\d{3})?[\s.-]?\d{3}[\s.-]?\d{4,6}|911|933)$/;
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
export const US_COUNTRY = 'USA';

export const isValidPhone = (s: string): boolean => PHONE_PATTERN.test(s.trim());
export const isValidEmail = (s: string): boolean => EMAIL_PATTERN.test(s.trim());
export const digitsOnly = (s: string): string => s.replace(/\D/g, '');
/** The state field applies to the USA (or no country chosen yet). */
export const stateAllowed = (country: string): boolean => country === '' || country === US_COUNTRY;

export function isValidBirthday(b: BirthdayWire, now = new Date()): boolean {
  if (!Number.isInteger(b.day) || !Number.isInteger(b.month) || !Number.isInteger(b.year)) return false;
  if (b.year < 1900 || b.year > now.getFullYear() || b.month < 1 || b.month > 12 || b.day < 1) return false;
  return b.day <= new Date(Date.UTC(b.year, b.month, 0)).getUTCDate();
}

export type ContactProblemCode =
  | 'identity_required'
  | 'phone_invalid'
  | 'phone_empty'
  | 'extension_invalid'
  | 'email_invalid'
  | 'im_incomplete'
  | 'birthday_invalid'
  | 'state_not_allowed'
  | 'zip_invalid'
  | 'required';

export interface ContactProblem {
  /** Wire path, e.g. `phone_numbers.0.number`. */
  path: string;
  code: ContactProblemCode;
}

/** A personal contact needs one of: first or last name, company, title, first phone or extension, first e-mail, an address part. */
export function hasIdentity(c: Pick<ContactInput, 'first_name' | 'last_name' | 'company' | 'title' | 'phone_numbers' | 'emails' | 'addresses'>): boolean {
  const first = (s: string | null | undefined) => (s ?? '').trim() !== '';
  const p = c.phone_numbers[0];
  const a = c.addresses.some((x) => [x.street_1, x.street_2, x.apt_number, x.city, x.state, x.zip_code, x.country, x.county].some(first));
  return first(c.first_name) || first(c.last_name) || first(c.company) || first(c.title) || first(p?.number) || first(p?.extension) || first(c.emails[0]?.email) || a;
}

/** Every rule a saved personal contact obeys, as the server checks it after the client's save normalisation. */
export function contactProblems(c: ContactInput, now = new Date()): ContactProblem[] {
  const out: ContactProblem[] = [];
  if (!hasIdentity(c)) out.push({ path: '(root)', code: 'identity_required' });
  c.phone_numbers.forEach((p, i) => {
    const number = (p.number ?? '').trim();
    const ext = (p.extension ?? '').trim();
    if (!number && !ext) out.push({ path: `phone_numbers.${i}.number`, code: 'phone_empty' });
    if (number && !isValidPhone(number)) out.push({ path: `phone_numbers.${i}.number`, code: 'phone_invalid' });
    if (ext && !/^\d+$/.test(ext)) out.push({ path: `phone_numbers.${i}.extension`, code: 'extension_invalid' });
  });
  c.emails.forEach((e, i) => {
    if (!isValidEmail(e.email)) out.push({ path: `emails.${i}.email`, code: 'email_invalid' });
  });
  c.instant_messengers.forEach((m, i) => {
    if (!m.name.trim() || !m.type.trim()) out.push({ path: `instant_messengers.${i}.name`, code: 'im_incomplete' });
  });
  if (c.birthday && !isValidBirthday(c.birthday, now)) out.push({ path: 'birthday', code: 'birthday_invalid' });
  c.addresses.forEach((a, i) => {
    if (a.state && !stateAllowed(a.country)) out.push({ path: `addresses.${i}.state`, code: 'state_not_allowed' });
    if (a.zip_code && !/^\d{5}$/.test(a.zip_code) && a.country === US_COUNTRY) out.push({ path: `addresses.${i}.zip_code`, code: 'zip_invalid' });
    if (a.zip_plus_four && !/^\d{4}$/.test(a.zip_plus_four)) out.push({ path: `addresses.${i}.zip_plus_four`, code: 'zip_invalid' });
  });
  return out;
}

// ---- naming --------------------------------------------------------------------------------------

export interface NameParts {
  first_name: string;
  last_name: string;
  company: string;
  emails: ReadonlyArray<Pick<EmailWire, 'email' | 'is_default'>>;
  phone_numbers: ReadonlyArray<Pick<PhoneNumberWire, 'number' | 'extension' | 'is_primary'>>;
}

/**
 * A contact's shown name is the first of these that is not empty: first+last, first, last,
 * company, default e-mail, formatted primary phone, then `noName` (the caller's translated "No name").
 */
export function contactName(c: NameParts, formatPhone: (n: string) => string, noName: string): string {
  const first = c.first_name.trim();
  const last = c.last_name.trim();
  if (first && last) return `${first} ${last}`;
  if (first) return first;
  if (last) return last;
  if (c.company.trim()) return c.company.trim();
  const email = (c.emails.find((e) => e.is_default) ?? c.emails[0])?.email.trim();
  if (email) return email;
  const phone = c.phone_numbers.find((p) => p.is_primary) ?? c.phone_numbers[0];
  const n = (phone?.number ?? '').trim() || (phone?.extension ?? '').trim();
  if (n) return formatPhone(n);
  return noName;
}

/** An extension is a work number shorter than 6 digits. */
export function isExtensionNumber(p: Pick<PhoneNumberWire, 'type' | 'number'>): boolean {
  const d = digitsOnly(p.number ?? '');
  return p.type === 'work' && d.length > 0 && d.length <= EXTENSION_MAX_DIGITS;
}

// ---- the profile as the contact form edits it (EDIT_PROFILE, EDIT_USER) ------------------------
// Kept here rather than in ./profile because they reuse the contact rules above, and ./profile is
// part of the boot bundle while these are only needed by the form and the server.

/** A profile e-mail list entry saved without a custom type gets this one. */
export const PROFILE_EMAIL_DEFAULT_TYPE = 'Custom';
/** A profile address with no country chosen yet counts as in the USA (the profile's default country). */
export const PROFILE_ADDRESS_DEFAULT_COUNTRY = US_COUNTRY;
export const PROFILE_LIMITS = { alias: 64, emails: 20, phones: 20 } as const;

/**
 * `PATCH /v1/users/{id}`: only the fields present change. Unknown keys are refused rather than
 * ignored, so a misspelt field never looks like a successful save. `current_password` and
 * `new_password` together are a password change (the preferences' password panel), sent alone.
 */
export const UserPatchBody = z.strictObject({
  first_name: z.optional(str(CONTACT_LIMITS.name)),
  last_name: z.optional(str(CONTACT_LIMITS.name)),
  alias: z.optional(z.nullable(str(PROFILE_LIMITS.alias))),
  company: z.optional(str(CONTACT_LIMITS.company)),
  email: z.optional(str(CONTACT_LIMITS.email)),
  current_password: z.optional(z.string().check(z.maxLength(1024))),
  new_password: z.optional(z.string().check(z.maxLength(1024))),
});
export type UserPatchBody = z.infer<typeof UserPatchBody>;

/** One entry of a user's e-mail list (the primary address is the profile's `email`, not in the list). */
export const UserEmailWire = z.object({
  /** Null (or ≤ 0, sent as null by the client) for a new entry. */
  id: z.nullable(Int4),
  email: str(CONTACT_LIMITS.email),
  custom_type: z.nullable(str(60)),
});
export type UserEmailWire = z.infer<typeof UserEmailWire>;
export const UserEmailListWire = z.object({ items: z.array(UserEmailWire).check(z.maxLength(PROFILE_LIMITS.emails)) });
export type UserEmailListWire = z.infer<typeof UserEmailListWire>;

/**
 * One of a user's phone numbers: the extension the organisation assigned (read-only here) or a
 * personal number the user added. `type` and `custom_type` are the contact's phone fields, so a
 * company contact shows the same labels a personal contact does.
 */
export const UserPhoneWire = z.object({
  source: z.enum(['personal', 'extension']),
  /** The row id of a personal number; null for a new one and for the extension. */
  source_id: z.nullable(Int4),
  extension: z.nullable(str(CONTACT_LIMITS.extension)),
  number: z.nullable(str(CONTACT_LIMITS.phone)),
  is_primary: z.boolean(),
  type: z.optional(PhoneType),
  custom_type: z.optional(z.nullable(str(60))),
});
export type UserPhoneWire = z.infer<typeof UserPhoneWire>;
export const UserPhoneListWire = z.object({ items: z.array(UserPhoneWire).check(z.maxLength(PROFILE_LIMITS.phones + 1)) });
export type UserPhoneListWire = z.infer<typeof UserPhoneListWire>;

/** What `PUT /v1/users/{id}/addresses/{address_id}` takes. `phone` left out keeps the stored one. */
export const UserAddressInput = z.object({
  street_1: str(CONTACT_LIMITS.street),
  street_2: str(CONTACT_LIMITS.street),
  apt_number: str(30),
  city: str(CONTACT_LIMITS.city),
  state: str(2),
  county: str(CONTACT_LIMITS.city),
  country: str(3),
  zip_code: str(CONTACT_LIMITS.zip),
  zip_plus_four: str(4),
  phone: z.optional(z.nullable(str(CONTACT_LIMITS.phone))),
});
export type UserAddressInput = z.infer<typeof UserAddressInput>;
export const UserAddressWire = z.object({
  address_id: z.int(),
  user_id: z.int(),
  street_1: z.string(),
  street_2: z.string(),
  apt_number: z.string(),
  city: z.string(),
  state: z.string(),
  county: z.string(),
  country: z.string(),
  zip_code: z.string(),
  zip_plus_four: z.string(),
  phone: z.nullable(z.string()),
});
export type UserAddressWire = z.infer<typeof UserAddressWire>;
export const UserAddressListWire = z.object({ items: z.array(UserAddressWire) });
export type UserAddressListWire = z.infer<typeof UserAddressListWire>;

/** Problem codes of the profile calls besides the contact ones. */
export type ProfileProblemCode = ContactProblemCode | 'extension_read_only';
export interface ProfileProblem {
  path: string;
  code: ProfileProblemCode;
}

/** A user always keeps a first name, a last name and an e-mail (sign-in, the directory and the profile rely on them). */
export function userPatchProblems(p: UserPatchBody): ProfileProblem[] {
  const out: ProfileProblem[] = [];
  for (const key of ['first_name', 'last_name', 'email'] as const) {
    if (p[key] !== undefined && !p[key].trim()) out.push({ path: key, code: 'required' });
  }
  if (p.email?.trim() && !isValidEmail(p.email)) out.push({ path: 'email', code: 'email_invalid' });
  return out;
}

export function userEmailProblems(list: UserEmailListWire): ProfileProblem[] {
  return list.items.flatMap((e, i): ProfileProblem[] => (isValidEmail(e.email) ? [] : [{ path: `items.${i}.email`, code: e.email.trim() ? 'email_invalid' : 'required' }]));
}

/** Personal numbers follow the contact rules; the extension can only be sent back as it is. */
export function userPhoneProblems(list: UserPhoneListWire, extension: string | null): ProfileProblem[] {
  const out: ProfileProblem[] = [];
  list.items.forEach((p, i) => {
    const number = (p.number ?? '').trim();
    const ext = (p.extension ?? '').trim();
    if (p.source === 'extension') {
      if (ext !== (extension ?? '') || (number && number !== ext)) out.push({ path: `items.${i}.extension`, code: 'extension_read_only' });
      return;
    }
    if (!number && !ext) out.push({ path: `items.${i}.number`, code: 'phone_empty' });
    if (number && !isValidPhone(number)) out.push({ path: `items.${i}.number`, code: 'phone_invalid' });
    if (ext && !/^\d+$/.test(ext)) out.push({ path: `items.${i}.extension`, code: 'extension_invalid' });
  });
  return out;
}

/** The contact address rules (state only for the USA, US zip codes), plus a valid phone if one is given. */
export function userAddressProblems(a: UserAddressInput): ProfileProblem[] {
  const out: ProfileProblem[] = [];
  if (a.state && !stateAllowed(a.country)) out.push({ path: 'state', code: 'state_not_allowed' });
  if (a.zip_code && !/^\d{5}$/.test(a.zip_code) && a.country === US_COUNTRY) out.push({ path: 'zip_code', code: 'zip_invalid' });
  if (a.zip_plus_four && !/^\d{4}$/.test(a.zip_plus_four)) out.push({ path: 'zip_plus_four', code: 'zip_invalid' });
  if (a.phone?.trim() && !isValidPhone(a.phone)) out.push({ path: 'phone', code: 'phone_invalid' });
  return out;
}
