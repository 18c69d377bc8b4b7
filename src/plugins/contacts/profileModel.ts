/**
 * The contact form in EDIT_PROFILE and EDIT_USER, apart from React: a user's profile as a form
 * draft, and a draft as the profile calls of the catalogue (PATCH /v1/users/{id} and the e-mail,
 * phone and address calls), each with the way back from its problem paths to the form's fields.
 */
import {
  stateAllowed,
  PROFILE_EMAIL_DEFAULT_TYPE,
  type UserAddressInput,
  type UserAddressWire,
  type UserEmailListWire,
  type UserEmailWire,
  type UserPatchBody,
  type UserPhoneListWire,
  type UserPhoneWire,
} from '../../wire/contacts';
import type { Profile } from '../../wire/profile';
import { primaryEmailIndex, splitZip, type AddressDraft, type ContactDraft, type EmailDraft, type PhoneDraft } from './formModel';

export interface ProfileBundle {
  profile: Profile;
  emails: UserEmailWire[];
  /** With their types and labels (the profile's own list has neither). */
  phones: UserPhoneWire[];
  addresses: UserAddressWire[];
}

/** `u<id>` → the user id; null for any other contact id. */
export function userIdOf(contactId: string | undefined): number | null {
  const m = /^u([1-9]\d{0,9})$/.exec(contactId ?? '');
  return m ? Number(m[1]) : null;
}

export function draftFromProfile({ profile, emails, phones: numbers, addresses }: ProfileBundle): ContactDraft {
  const phones = numbers.map((p): PhoneDraft => {
    const type = p.type ?? (p.source === 'extension' ? 'work' : 'mobile');
    return {
      number: p.source === 'extension' ? '' : (p.number ?? ''),
      extension: p.extension ?? '',
      type,
      customType: p.custom_type ?? '',
      sourceId: p.source_id,
      isDefault: p.is_primary,
      isPrimary: p.is_primary,
      callerId: false,
      source: p.source,
    };
  });
  // The profile's own address is the primary entry, shown first and never saved in the list; the list follows.
  const primary: EmailDraft = { id: null, email: profile.email, type: 'work', customType: '', isDefault: true, source: 'User' };
  const list = emails.map((e): EmailDraft => ({ id: e.id, email: e.email, type: 'custom', customType: e.custom_type ?? '', isDefault: false, source: 'User' }));
  return {
    firstName: profile.first_name,
    lastName: profile.last_name,
    alias: profile.alias ?? '',
    company: profile.company,
    title: '',
    notes: '',
    phones,
    emails: [primary, ...list],
    addresses: addresses.map((a): AddressDraft => ({
      addressId: a.address_id,
      type: 'work',
      street1: a.street_1,
      street2: a.street_2,
      aptNumber: a.apt_number,
      city: a.city,
      state: a.state,
      zip: a.zip_plus_four ? `${a.zip_code}-${a.zip_plus_four}` : a.zip_code,
      country: a.country,
      county: a.county,
      source: 'User',
    })),
    ims: [],
    birthday: { day: '', month: '', year: '' },
  };
}

const positiveOrNull = (id: number | null) => (id !== null && id > 0 ? id : null);

/** One call of a save, with the form field each of its problem paths belongs to. */
interface Part<B> {
  body: B;
  /** Wire path (`items.2.number`) → form field (`phones.3.number`); null when no field shows it. */
  fieldOf(path: string): string | null;
}

export interface ProfileSavePlan {
  userId: number;
  /** Each part is null when what it carries did not change. */
  patch: Part<UserPatchBody> | null;
  emails: Part<UserEmailListWire> | null;
  phones: Part<UserPhoneListWire> | null;
  address: (Part<UserAddressInput> & { addressId: number }) | null;
}
export type ProfileStep = 'patch' | 'emails' | 'phones' | 'address';

function patchOf(d: ContactDraft): { body: Required<Pick<UserPatchBody, 'first_name' | 'last_name' | 'alias' | 'company' | 'email'>>; primary: number } {
  const primary = primaryEmailIndex(d.emails);
  return {
    // An emptied alias is sent as null (no alias).
    body: { first_name: d.firstName.trim(), last_name: d.lastName.trim(), alias: d.alias.trim() || null, company: d.company.trim(), email: (d.emails[primary]?.email ?? '').trim() },
    primary,
  };
}

/** The e-mails after the primary, non-empty ones only; entries without a custom type get 'Custom' and new ones (id ≤ 0) go as null. */
function emailsOf(d: ContactDraft): { body: UserEmailListWire; rows: number[] } {
  const primary = primaryEmailIndex(d.emails);
  const rows: number[] = [];
  const items: UserEmailWire[] = [];
  d.emails.forEach((e, i) => {
    if (i === primary || !e.email.trim()) return;
    rows.push(i);
    items.push({ id: positiveOrNull(e.id), email: e.email.trim(), custom_type: e.customType.trim() || PROFILE_EMAIL_DEFAULT_TYPE });
  });
  return { body: { items }, rows };
}

/** Rows with neither number nor extension are dropped; personal numbers with sourceId ≤ 0 go as null (new). */
function phonesOf(d: ContactDraft): { body: UserPhoneListWire; rows: number[] } {
  const rows: number[] = [];
  const items: UserPhoneWire[] = [];
  d.phones.forEach((p, i) => {
    if (p.source === 'extension') {
      rows.push(i);
      items.push({ source: 'extension', source_id: null, extension: p.extension, number: null, is_primary: p.isPrimary });
      return;
    }
    if (!p.number.trim() && !p.extension.trim()) return;
    rows.push(i);
    items.push({
      source: 'personal',
      source_id: positiveOrNull(p.sourceId),
      number: p.number.trim() || null,
      extension: p.extension.trim() || null,
      is_primary: p.isPrimary,
      type: p.type,
      custom_type: p.type === 'custom' ? p.customType.trim() || null : null,
    });
  });
  return { body: { items }, rows };
}

function addressOf(a: AddressDraft): UserAddressInput {
  const { zipCode, zipPlusFour } = splitZip(a.zip);
  return {
    street_1: a.street1.trim(),
    street_2: a.street2.trim(),
    apt_number: a.aptNumber.trim(),
    city: a.city.trim(),
    state: stateAllowed(a.country) ? a.state : '',
    county: a.county.trim(),
    country: a.country,
    zip_code: zipCode,
    zip_plus_four: zipPlusFour,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const rowField = (rows: readonly number[], prefix: string, fields: Record<string, string>) => (path: string) => {
  const m = /^items\.(\d+)\.(\w+)$/.exec(path);
  const row = m ? rows[Number(m[1])] : undefined;
  const field = m ? fields[m[2]!] : undefined;
  return row === undefined || !field ? null : `${prefix}.${row}.${field}`;
};

/** What saving `draft` (opened as `initial`) sends: only the parts that changed, and only the changed profile fields. */
export function profileSavePlan(userId: number, initial: ContactDraft, draft: ContactDraft): ProfileSavePlan {
  const before = patchOf(initial);
  const after = patchOf(draft);
  const changed = Object.fromEntries(Object.entries(after.body).filter(([k, v]) => before.body[k as keyof typeof before.body] !== v)) as UserPatchBody;
  const patchFields: Record<string, string> = { first_name: 'firstName', last_name: 'lastName', alias: 'alias', company: 'company', email: `emails.${after.primary}.email` };

  const emailsBefore = emailsOf(initial);
  const emailsAfter = emailsOf(draft);
  const phonesBefore = phonesOf(initial);
  const phonesAfter = phonesOf(draft);
  const addressDraft = draft.addresses[0];
  const initialAddress = initial.addresses[0];
  const addressAfter = addressDraft ? addressOf(addressDraft) : null;

  return {
    userId,
    patch: Object.keys(changed).length ? { body: changed, fieldOf: (path) => patchFields[path] ?? null } : null,
    emails: same(emailsBefore.body, emailsAfter.body) ? null : { body: emailsAfter.body, fieldOf: rowField(emailsAfter.rows, 'emails', { email: 'email' }) },
    phones: same(phonesBefore.body, phonesAfter.body) ? null : { body: phonesAfter.body, fieldOf: rowField(phonesAfter.rows, 'phones', { number: 'number', extension: 'extension' }) },
    address:
      addressDraft?.addressId && addressAfter && !(initialAddress && same(addressOf(initialAddress), addressAfter))
        ? {
            addressId: addressDraft.addressId,
            body: addressAfter,
            fieldOf: (path) => ({ state: 'addresses.0.state', zip_code: 'addresses.0.zip', zip_plus_four: 'addresses.0.zip' })[path] ?? null,
          }
        : null,
  };
}

export const isEmptyPlan = (p: ProfileSavePlan) => !p.patch && !p.emails && !p.phones && !p.address;
