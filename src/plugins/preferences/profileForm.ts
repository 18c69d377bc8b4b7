import type { UserPatchBody } from '../../wire/contacts';
import type { Profile } from '../../wire/profile';

/** The edit-profile modal's fields: the profile's own, as PATCH /v1/users/{id} takes them. */
export interface ProfileDraft {
  firstName: string;
  lastName: string;
  alias: string;
  company: string;
  email: string;
}
export type ProfileField = keyof ProfileDraft;
export type ProfileFieldError = 'required' | 'emailInvalid';

export const draftOf = (p: Profile): ProfileDraft => ({ firstName: p.first_name, lastName: p.last_name, alias: p.alias ?? '', company: p.company, email: p.email });

const WIRE: Record<ProfileField, keyof UserPatchBody> = { firstName: 'first_name', lastName: 'last_name', alias: 'alias', company: 'company', email: 'email' };
/** A problem path of the server's 400 (`first_name`) → the field showing it. */
export const fieldOfPath = (path: string): ProfileField | null => (Object.keys(WIRE) as ProfileField[]).find((f) => WIRE[f] === path) ?? null;

// The same shape the contacts form accepts: something@something.tld, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** As the contact form's profile mode: names and e-mail are required, and the e-mail must look like one. */
export function validateProfile(d: ProfileDraft): Partial<Record<ProfileField, ProfileFieldError>> {
  const errors: Partial<Record<ProfileField, ProfileFieldError>> = {};
  if (!d.firstName.trim()) errors.firstName = 'required';
  if (!d.lastName.trim()) errors.lastName = 'required';
  if (!d.email.trim()) errors.email = 'required';
  else if (!EMAIL.test(d.email.trim())) errors.email = 'emailInvalid';
  return errors;
}

/** Only what changed, trimmed; an emptied alias is sent as null (no alias). */
export function profilePatch(before: ProfileDraft, after: ProfileDraft): UserPatchBody {
  const patch: UserPatchBody = {};
  for (const f of Object.keys(WIRE) as ProfileField[]) {
    const value = after[f].trim();
    if (value === before[f].trim()) continue;
    if (f === 'alias') patch.alias = value || null;
    else patch[WIRE[f] as 'first_name' | 'last_name' | 'company' | 'email'] = value;
  }
  return patch;
}
