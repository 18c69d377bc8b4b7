import { describe, expect, it } from 'vitest';
import type { UserAddressWire } from '../../wire/contacts';
import type { Profile } from '../../wire/profile';
import { emptyEmail, emptyPhone, markPrimaryEmail, markPrimaryPhone, validateDraft, type ContactDraft } from './formModel';
import { draftFromProfile, isEmptyPlan, profileSavePlan, userIdOf, type ProfileBundle } from './profileModel';

const profile = (over: Partial<Profile> = {}): Profile => ({
  user_id: 7, username: 'alice', first_name: 'Alice', last_name: 'Nguyen', alias: null, avatar_id: null, avatar_href: null, email: 'alice@acme.example',
  c2d_peer_type: 2, company: 'Acme Corp', organization_id: 1, role_id: 3, extension: '1001', is_reseller_level: false,
  phone_numbers: [
    { source: 'extension', source_id: null, extension: '1001', number: null, is_primary: false },
    { source: 'personal', source_id: 31, extension: null, number: '(415) 555-0142', is_primary: true },
  ],
  ...over,
});
const address = (over: Partial<UserAddressWire> = {}): UserAddressWire => ({
  address_id: 5, user_id: 7, street_1: '1 Market St', street_2: '', apt_number: '', city: 'San Francisco', state: 'CA', county: '', country: 'USA',
  zip_code: '94105', zip_plus_four: '1234', phone: null, ...over,
});
const bundle = (over: Partial<ProfileBundle> = {}): ProfileBundle => ({
  profile: profile(),
  emails: [{ id: 11, email: 'alice.home@example.org', custom_type: 'Home' }, { id: 12, email: 'an@example.org', custom_type: 'Custom' }],
  phones: [
    { source: 'extension', source_id: null, extension: '1001', number: null, is_primary: false, type: 'work', custom_type: null },
    { source: 'personal', source_id: 31, extension: null, number: '(415) 555-0142', is_primary: true, type: 'mobile', custom_type: null },
  ],
  addresses: [address()],
  ...over,
});
const edit = (d: ContactDraft, change: (d: ContactDraft) => Partial<ContactDraft>): ContactDraft => ({ ...d, ...change(d) });

describe('the profile as the form draft', () => {
  it('the primary e-mail first, then the list; the extension marked as such; the zip joined', () => {
    const d = draftFromProfile(bundle());
    expect(d).toMatchObject({ firstName: 'Alice', lastName: 'Nguyen', company: 'Acme Corp', title: '', notes: '', ims: [] });
    expect(d.emails.map((e) => [e.id, e.email, e.isDefault, e.source])).toEqual([
      [null, 'alice@acme.example', true, 'User'],
      [11, 'alice.home@example.org', false, 'User'],
      [12, 'an@example.org', false, 'User'],
    ]);
    expect(d.phones.map((p) => [p.source, p.number, p.extension, p.sourceId, p.isPrimary])).toEqual([
      ['extension', '', '1001', null, false],
      ['personal', '(415) 555-0142', '', 31, true],
    ]);
    expect(d.addresses).toEqual([expect.objectContaining({ addressId: 5, street1: '1 Market St', zip: '94105-1234', country: 'USA', source: 'User' })]);
  });
  it('only user contacts have a profile', () => {
    expect(userIdOf('u42')).toBe(42);
    expect(userIdOf('p42')).toBeNull();
    expect(userIdOf(undefined)).toBeNull();
    expect(userIdOf('u0')).toBeNull();
  });
});

describe('saving the profile: what each call of the catalogue gets', () => {
  it('nothing changed: no call at all', () => {
    const d = draftFromProfile(bundle());
    expect(isEmptyPlan(profileSavePlan(7, d, structuredClone(d)))).toBe(true);
  });

  it('PATCH /v1/users/{id} carries only the changed profile fields, trimmed', () => {
    const d = draftFromProfile(bundle());
    const plan = profileSavePlan(7, d, edit(d, () => ({ lastName: ' Nguyen-Park ', company: 'Acme Research' })));
    expect(plan.patch?.body).toEqual({ last_name: 'Nguyen-Park', company: 'Acme Research' });
    expect(plan.emails).toBeNull();
    expect(plan.phones).toBeNull();
    expect(plan.address).toBeNull();
    expect(plan.patch?.fieldOf('last_name')).toBe('lastName');
    expect(plan.patch?.fieldOf('new_password')).toBeNull();
  });

  it('the alias: trimmed, and an emptied one sent as null (no alias)', () => {
    const d = draftFromProfile(bundle({ profile: profile({ alias: 'Ali' }) }));
    expect(d.alias).toBe('Ali');
    expect(profileSavePlan(7, d, edit(d, () => ({ alias: ' A. ' }))).patch?.body).toEqual({ alias: 'A.' });
    expect(profileSavePlan(7, d, edit(d, () => ({ alias: '  ' }))).patch?.body).toEqual({ alias: null });
    expect(profileSavePlan(7, d, edit(d, () => ({ alias: '  ' }))).patch?.fieldOf('alias')).toBe('alias');
  });

  it('e-mails: the first (primary) entry is the profile e-mail and not in the list; no custom type → Custom; ids ≤ 0 → null', () => {
    const d = draftFromProfile(bundle({ emails: [] }));
    const added = edit(d, (x) => ({ emails: [...x.emails, { ...emptyEmail(), email: ' new@example.org ' }, { ...emptyEmail(), email: '  ' }] }));
    expect(added.emails[1]!.id).toBeLessThan(0);
    const plan = profileSavePlan(7, d, added);
    expect(plan.patch).toBeNull();
    // The empty row is dropped; the new one goes with a null id and the default custom type.
    expect(plan.emails?.body).toEqual({ items: [{ id: null, email: 'new@example.org', custom_type: 'Custom' }] });
    expect(plan.emails?.fieldOf('items.0.email')).toBe('emails.1.email');
  });

  it('e-mails: marking another one primary makes it the profile e-mail and puts the old one in the list', () => {
    const d = draftFromProfile(bundle());
    const plan = profileSavePlan(7, d, edit(d, (x) => ({ emails: markPrimaryEmail(x.emails, 2) })));
    expect(plan.patch?.body).toEqual({ email: 'an@example.org' });
    expect(plan.patch?.fieldOf('email')).toBe('emails.2.email');
    expect(plan.emails?.body.items).toEqual([
      { id: null, email: 'alice@acme.example', custom_type: 'Custom' },
      { id: 11, email: 'alice.home@example.org', custom_type: 'Home' },
    ]);
    expect(plan.emails?.fieldOf('items.1.email')).toBe('emails.1.email');
  });

  it('phones: the extension goes back as it is; personal numbers with sourceId ≤ 0 go as null; empty rows are dropped', () => {
    const d = draftFromProfile(bundle());
    const plan = profileSavePlan(7, d, edit(d, (x) => ({ phones: markPrimaryPhone([...x.phones, { ...emptyPhone(), number: '(212) 555-0199', type: 'custom', customType: 'Lab' }, emptyPhone()], 0) })));
    expect(plan.phones?.body.items).toEqual([
      { source: 'extension', source_id: null, extension: '1001', number: null, is_primary: true },
      { source: 'personal', source_id: 31, number: '(415) 555-0142', extension: null, is_primary: false, type: 'mobile', custom_type: null },
      { source: 'personal', source_id: null, number: '(212) 555-0199', extension: null, is_primary: false, type: 'custom', custom_type: 'Lab' },
    ]);
    // Problems come back by the call's index and land on the draft's row.
    expect(plan.phones?.fieldOf('items.2.number')).toBe('phones.2.number');
    expect(plan.phones?.fieldOf('items.0.extension')).toBe('phones.0.extension');
    expect(plan.phones?.fieldOf('items.9.number')).toBeNull();
  });

  it('phones: a removed row is left out of the list; its row index no longer shifts the others', () => {
    const d = draftFromProfile(bundle());
    const plan = profileSavePlan(7, d, edit(d, (x) => ({ phones: [{ ...emptyPhone(), number: '12' }, ...x.phones.slice(0, 1)] })));
    expect(plan.phones?.body.items.map((p) => p.source)).toEqual(['personal', 'extension']);
    expect(plan.phones?.fieldOf('items.0.number')).toBe('phones.0.number');
  });

  it('address: PUT by its id, the zip split at the hyphen, the state only for the USA', () => {
    const d = draftFromProfile(bundle());
    const plan = profileSavePlan(7, d, edit(d, (x) => ({ addresses: [{ ...x.addresses[0]!, street1: ' 2 Market St ', zip: '12345-6789' }] })));
    expect(plan.address).toMatchObject({ addressId: 5, body: { street_1: '2 Market St', zip_code: '12345', zip_plus_four: '6789', state: 'CA', country: 'USA' } });
    expect(plan.address?.fieldOf('zip_plus_four')).toBe('addresses.0.zip');
    const abroad = profileSavePlan(7, d, edit(d, (x) => ({ addresses: [{ ...x.addresses[0]!, country: 'CAN' }] })));
    expect(abroad.address?.body.state).toBe('');
  });
});

describe('the profile modes’ rules', () => {
  it('first name, last name and the primary e-mail are required (EDIT_PROFILE and EDIT_USER)', () => {
    const d = draftFromProfile(bundle());
    expect(validateDraft(d, 'EDIT_PROFILE')).toEqual({});
    const blank = edit(d, (x) => ({ firstName: ' ', lastName: '', emails: x.emails.map((e, i) => (i === 0 ? { ...e, email: '' } : e)) }));
    for (const mode of ['EDIT_PROFILE', 'EDIT_USER'] as const) {
      expect(validateDraft(blank, mode)).toEqual({ firstName: 'required', lastName: 'required', 'emails.0.email': 'required' });
    }
    // The required one is whichever is marked primary.
    const moved = edit(d, (x) => ({ emails: markPrimaryEmail(x.emails.map((e, i) => (i === 2 ? { ...e, email: '' } : e)), 2) }));
    expect(validateDraft(moved, 'EDIT_PROFILE')).toEqual({ 'emails.2.email': 'required' });
  });
  it('the user’s own e-mail rows and numbers follow the contact rules; the extension is not checked', () => {
    const d = draftFromProfile(bundle());
    const bad = edit(d, (x) => ({
      emails: x.emails.map((e, i) => (i === 1 ? { ...e, email: 'nope' } : e)),
      phones: x.phones.map((p, i) => (i === 1 ? { ...p, number: '12' } : { ...p, extension: 'x' })),
      addresses: [{ ...x.addresses[0]!, zip: '123' }],
    }));
    expect(validateDraft(bad, 'EDIT_USER')).toEqual({ 'emails.1.email': 'email_invalid', 'phones.1.number': 'phone_invalid', 'addresses.0.zip': 'zip_invalid' });
  });
});
