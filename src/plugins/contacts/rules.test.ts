import { describe, expect, it } from 'vitest';
import {
  contactName,
  contactProblems,
  hasIdentity,
  isExtensionNumber,
  isValidBirthday,
  isValidEmail,
  isValidPhone,
  stateAllowed,
  type ContactInput,
  type PhoneNumberWire,
} from '../../wire/contacts';
import { dialable, displayName, formatPhone, phoneLabel } from './format';
import {
  draftFromContact,
  emptyAddress,
  emptyDraft,
  emptyEmail,
  emptyIm,
  emptyPhone,
  formatZipInput,
  isDirty,
  markPrimaryEmail,
  numbersOnly,
  problemField,
  splitZip,
  stateEnabled,
  toInput,
  validateDraft,
  visibleError,
  withCountry,
  type ContactDraft,
} from './formModel';
import { countryOptions, US_STATES } from './places';
import { parseContactsSearch, validateContactsSearch } from './route';

const phone = (number: string | null, over: Partial<PhoneNumberWire> = {}): PhoneNumberWire => ({
  number, extension: null, type: 'mobile', custom_type: null, source: 'personal', source_id: null, is_default: false, is_primary: false, caller_id: false, ...over,
});
const blank = (over: Partial<ContactInput> = {}): ContactInput => ({
  first_name: '', last_name: '', company: '', title: '', notes: '', time_zone: null, birthday: null,
  phone_numbers: [], emails: [], addresses: [], instant_messengers: [], ...over,
});
const email = (address: string, is_default = false) => ({ id: null, email: address, type: 'work', custom_type: null, is_default, source: 'personal' as const });
const draft = (over: Partial<ContactDraft> = {}): ContactDraft => ({ ...emptyDraft(), ...over });

describe('name fallback chain', () => {
  const parts = (over: Partial<Parameters<typeof contactName>[0]> = {}) => ({ first_name: '', last_name: '', company: '', emails: [], phone_numbers: [], ...over });
  const name = (over: Partial<Parameters<typeof contactName>[0]> = {}) => displayName(parts(over), 'No name');

  it('first + last, then first, then last', () => {
    expect(name({ first_name: ' Ada ', last_name: 'Lovelace' })).toBe('Ada Lovelace');
    expect(name({ first_name: 'Ada', company: 'Analytical' })).toBe('Ada');
    expect(name({ last_name: 'Lovelace', company: 'Analytical' })).toBe('Lovelace');
  });
  it('then company, then the default e-mail', () => {
    expect(name({ company: 'Analytical Engines', emails: [email('x@y.example', true)] })).toBe('Analytical Engines');
    expect(name({ emails: [email('first@y.example'), email('default@y.example', true)] })).toBe('default@y.example');
    expect(name({ emails: [email('only@y.example')] })).toBe('only@y.example');
  });
  it('then the formatted primary phone, then the no-name label', () => {
    expect(name({ phone_numbers: [phone('+14155550100'), phone('4155550142', { is_primary: true })] })).toBe('(415) 555-0142');
    expect(name({ phone_numbers: [phone(null, { extension: '1002' })] })).toBe('1002');
    expect(name({ phone_numbers: [phone('')] })).toBe('No name');
    expect(name()).toBe('No name');
  });
});

describe('phone numbers', () => {
  it('an extension is a work number shorter than 6 digits', () => {
    expect(isExtensionNumber({ type: 'work', number: '1002' })).toBe(true);
    expect(isExtensionNumber({ type: 'work', number: '12345' })).toBe(true);
    expect(isExtensionNumber({ type: 'work', number: '123456' })).toBe(false);
    expect(isExtensionNumber({ type: 'mobile', number: '1002' })).toBe(false);
    expect(isExtensionNumber({ type: 'work', number: '' })).toBe(false);
    expect(phoneLabel({ type: 'work', number: '1002', custom_type: null })).toBe('extension');
    expect(phoneLabel({ type: 'work', number: '4155550142', custom_type: null })).toBe('work');
  });
  it('formats with libphonenumber-js: national for +1, international otherwise, short codes as typed', () => {
    expect(formatPhone('4155550142')).toBe('(415) 555-0142');
    expect(formatPhone('+1 415 555 0142')).toBe('(415) 555-0142');
    expect(formatPhone('+442079460958')).toBe('+44 20 7946 0958');
    expect(formatPhone('+33 1 23 45 67 89')).toBe('+33 1 23 45 67 89');
    expect(formatPhone('1002')).toBe('1002');
    expect(formatPhone('911')).toBe('911');
    expect(formatPhone('not a number')).toBe('not a number');
    expect(dialable('(415) 555-0142')).toBe('+14155550142');
    expect(dialable('1002')).toBe('1002');
  });
  it('the phone pattern: optional +, optional (area code), 3 digits, 4 to 6 digits; 911 and 933', () => {
    for (const ok of ['911', '933', '4155550142', '+4155550142', '(415)5550142', '(415) 555-0142', '555-0142', '5550142', '415555014212', ' 4155550142 '])
      expect(isValidPhone(ok), ok).toBe(true);
    for (const bad of ['', '12', '912', '555-01', '415-555-0142-99999', 'abc5550142', '++4155550142', '(41)5550142', '4155550142x'])
      expect(isValidPhone(bad), bad).toBe(false);
  });
  it('the e-mail pattern', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.org']) expect(isValidEmail(ok), ok).toBe(true);
    for (const bad of ['', 'a@b', 'a b@c.de', '@c.de', 'a@.de', 'a@b..de']) expect(isValidEmail(bad), bad).toBe(false);
  });
  it('numbers-only input strips everything else', () => {
    expect(numbersOnly('(415) 555-01a42')).toBe('415555014' + '2');
  });
});

describe('identity and shared validation', () => {
  it('a personal contact needs one identifying field', () => {
    expect(hasIdentity(blank())).toBe(false);
    expect(hasIdentity(blank({ first_name: ' ' }))).toBe(false);
    for (const c of [
      blank({ first_name: 'A' }), blank({ last_name: 'B' }), blank({ company: 'C' }), blank({ title: 'CTO' }),
      blank({ phone_numbers: [phone('911')] }), blank({ phone_numbers: [phone(null, { extension: '12' })] }), blank({ emails: [email('a@b.co')] }),
      blank({ addresses: [{ address_id: null, type: 'home', street_1: '', street_2: '', apt_number: '', city: 'Lyon', state: '', zip_code: '', zip_plus_four: '', country: '', county: '', source: 'personal' }] }),
    ])
      expect(hasIdentity(c)).toBe(true);
    // Only the first phone and the first e-mail count.
    expect(hasIdentity(blank({ phone_numbers: [phone(''), phone('911')] }))).toBe(false);
    expect(contactProblems(blank())).toEqual([{ path: '(root)', code: 'identity_required' }]);
  });
  it('birthdays must be real dates', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(isValidBirthday({ day: 29, month: 2, year: 2024 }, now)).toBe(true);
    expect(isValidBirthday({ day: 29, month: 2, year: 2023 }, now)).toBe(false);
    expect(isValidBirthday({ day: 1, month: 13, year: 2000 }, now)).toBe(false);
    expect(isValidBirthday({ day: 1, month: 1, year: 2027 }, now)).toBe(false);
    expect(isValidBirthday({ day: 1, month: 1, year: 1899 }, now)).toBe(false);
  });
  it('the state applies only to the USA or no country', () => {
    expect(stateAllowed('')).toBe(true);
    expect(stateAllowed('USA')).toBe(true);
    expect(stateAllowed('CAN')).toBe(false);
    const addr = { address_id: null, type: 'work', street_1: '1 Main', street_2: '', apt_number: '', city: '', state: 'CA', zip_code: '1234', zip_plus_four: '12', country: 'USA', county: '', source: 'personal' as const };
    expect(contactProblems(blank({ addresses: [addr] })).map((p) => `${p.path}:${p.code}`)).toEqual(['addresses.0.zip_code:zip_invalid', 'addresses.0.zip_plus_four:zip_invalid']);
    expect(contactProblems(blank({ addresses: [{ ...addr, zip_code: '12345', zip_plus_four: '', country: 'MEX' }] })).map((p) => p.code)).toEqual(['state_not_allowed']);
  });
});

describe('zip, country and state fields', () => {
  it('zip text splits into zipCode and zipPlusFour at the hyphen', () => {
    expect(splitZip('12345-6789')).toEqual({ zipCode: '12345', zipPlusFour: '6789' });
    expect(splitZip('12345')).toEqual({ zipCode: '12345', zipPlusFour: '' });
    expect(splitZip(' 02108 ')).toEqual({ zipCode: '02108', zipPlusFour: '' });
  });
  it('a 10-character value without a hyphen at position 6 gets one', () => {
    expect(formatZipInput('12345 6789')).toBe('12345-6789');
    expect(formatZipInput('123456789x')).toBe('12345-6789');
    expect(formatZipInput('12345-6789')).toBe('12345-6789');
    expect(formatZipInput('123456789')).toBe('123456789');
    expect(splitZip('12345 6789')).toEqual({ zipCode: '12345', zipPlusFour: '6789' });
  });
  it('choosing a country other than the USA clears the state and disables it', () => {
    const a = { ...emptyAddress(), state: 'NY', country: 'USA' };
    expect(withCountry(a, '')).toMatchObject({ state: 'NY', country: '' });
    expect(stateEnabled(withCountry(a, ''))).toBe(true);
    const fr = withCountry(a, 'FRA');
    expect(fr).toMatchObject({ state: '', country: 'FRA' });
    expect(stateEnabled(fr)).toBe(false);
    // Saving never sends a state for another country, even if one slipped in.
    expect(toInput(draft({ addresses: [{ ...a, street1: '1 Rue', country: 'FRA' }] })).addresses[0]!.state).toBe('');
  });
  it('country list: names with three-letter codes; the caller puts "Select Country" first', () => {
    const list = countryOptions('en');
    expect(list.length).toBeGreaterThan(240);
    expect(list.find((o) => o.value === 'USA')?.label).toBe('United States');
    expect(list.find((o) => o.value === 'DEU')?.label).toBe('Germany');
    expect(list.every((o) => /^[A-Z]{3}$/.test(o.value))).toBe(true);
    expect(countryOptions('de').find((o) => o.value === 'DEU')?.label).toBe('Deutschland');
  });
  it('US states: two-letter values', () => {
    expect(US_STATES.find((s) => s.value === 'NY')?.label).toBe('New York');
    expect(US_STATES.every((s) => /^[A-Z]{2}$/.test(s.value))).toBe(true);
    expect(US_STATES.length).toBeGreaterThanOrEqual(51);
  });
});

describe('e-mails', () => {
  it('marking one e-mail primary clears the others', () => {
    const list = [{ ...emptyEmail(true), email: 'a@b.co' }, { ...emptyEmail(), email: 'c@d.co' }, { ...emptyEmail(), email: 'e@f.co' }];
    expect(markPrimaryEmail(list, 2).map((e) => e.isDefault)).toEqual([false, false, true]);
  });
});

describe('save normalisation', () => {
  it('drops phones with neither number nor extension; ids of 0 or less go out as null', () => {
    const input = toInput(
      draft({
        firstName: ' Ada ',
        phones: [{ ...emptyPhone(true), number: ' (415) 555-0142 ', sourceId: -3 }, { ...emptyPhone(), sourceId: 7 }, { ...emptyPhone(), extension: '12', sourceId: 0 }, { ...emptyPhone(), number: '911', sourceId: 9 }],
      }),
    );
    expect(input.first_name).toBe('Ada');
    expect(input.phone_numbers.map((p) => [p.number, p.extension, p.source_id])).toEqual([['(415) 555-0142', null, null], [null, '12', null], ['911', null, 9]]);
  });
  it('keeps only personal, non-empty e-mails; custom types default to Custom', () => {
    const input = toInput(
      draft({
        emails: [
          { ...emptyEmail(true), email: ' a@b.co ', id: 4 },
          { ...emptyEmail(), email: '   ' },
          { ...emptyEmail(), email: 'synced@google.example', source: 'google' },
          { ...emptyEmail(), email: 'x@y.co', type: 'custom', id: -2 },
        ],
      }),
    );
    expect(input.emails).toEqual([
      { id: 4, email: 'a@b.co', type: 'work', custom_type: null, is_default: true, source: 'personal' },
      { id: null, email: 'x@y.co', type: 'custom', custom_type: 'Custom', is_default: false, source: 'personal' },
    ]);
  });
  it('instant messengers need name and type (an untouched empty row is dropped, a half one is an error)', () => {
    const d = draft({ firstName: 'A', ims: [emptyIm(), { ...emptyIm(), type: 'skype', name: 'ada' }, { ...emptyIm(), type: 'teams' }] });
    expect(toInput(d).instant_messengers.map((m) => [m.type, m.name, m.id])).toEqual([['skype', 'ada', null], ['teams', '', null]]);
    expect(validateDraft(d, 'CREATE')).toEqual({ 'ims.2.name': 'im_incomplete' });
  });
  it('addresses are kept if they have street1 or are personal', () => {
    const d = draft({ addresses: [{ ...emptyAddress(), street1: '1 Main', source: 'google' }, { ...emptyAddress(), source: 'google' }, { ...emptyAddress(), city: 'Lyon' }] });
    expect(toInput(d).addresses.map((a) => [a.street_1, a.city, a.source])).toEqual([['1 Main', '', 'personal'], ['', 'Lyon', 'personal']]);
  });
  it('a birthday needs day, month and year, else it is null', () => {
    expect(toInput(draft({ birthday: { day: '3', month: '4', year: '1990' } })).birthday).toEqual({ day: 3, month: 4, year: 1990 });
    expect(toInput(draft({ birthday: { day: '3', month: '4', year: '' } })).birthday).toBeNull();
    expect(validateDraft(draft({ firstName: 'A', birthday: { day: '3', month: '', year: '' } }), 'CREATE')).toEqual({ birthday: 'birthday_invalid' });
    expect(validateDraft(draft({ firstName: 'A', birthday: { day: '31', month: '2', year: '1990' } }), 'CREATE')).toEqual({ birthday: 'birthday_invalid' });
  });
  it('round-trips a saved contact through the draft', () => {
    const d = draftFromContact({
      id: 'p1', user_id: null, source_id: '1', role_id: null, role_name: null, source: 'personal', name: 'Ada', first_name: 'Ada', last_name: '', company: '', title: '', notes: '',
      time_zone: null, avatar_id: null, avatar_href: null, video_id: null, favorite: false, readonly: false, hidden: false, status: null, state: null, is_current_user: false,
      is_dummy_contact: false, in_meeting: false, messaging_did: null, messaging_did_label: null, emails: [], instant_messengers: [], birthday: { day: 1, month: 2, year: 1990 },
      phone_numbers: [phone('911', { source_id: 3, is_primary: true })],
      addresses: [{ address_id: 5, type: 'home', street_1: '1 Main', street_2: '', apt_number: '', city: 'NYC', state: 'NY', zip_code: '10001', zip_plus_four: '1234', country: 'USA', county: '', source: 'personal' }],
    });
    expect(d.addresses[0]!.zip).toBe('10001-1234');
    const input = toInput(d);
    expect(input.addresses[0]).toMatchObject({ address_id: 5, zip_code: '10001', zip_plus_four: '1234', state: 'NY' });
    expect(input.phone_numbers[0]).toMatchObject({ number: '911', source_id: 3 });
    expect(input.birthday).toEqual({ day: 1, month: 2, year: 1990 });
  });
});

describe('form modes and errors', () => {
  it('CREATE and EDIT need one identifying field', () => {
    expect(validateDraft(emptyDraft(), 'CREATE')).toEqual({ '(root)': 'identity_required' });
    expect(validateDraft(emptyDraft(), 'EDIT')).toEqual({ '(root)': 'identity_required' });
    expect(validateDraft(draft({ title: 'CTO' }), 'CREATE')).toEqual({});
  });
  it('EDIT_PROFILE requires first name, last name and e-mail', () => {
    expect(validateDraft(emptyDraft(), 'EDIT_PROFILE')).toEqual({ firstName: 'required', lastName: 'required', 'emails.0.email': 'required' });
    expect(validateDraft(draft({ firstName: 'A', lastName: 'B', emails: [{ ...emptyEmail(true), email: 'a@b.co' }] }), 'EDIT_PROFILE')).toEqual({});
  });
  it('row patterns point at the row typed, before empty rows are dropped', () => {
    const d = draft({ firstName: 'A', phones: [emptyPhone(true), { ...emptyPhone(), number: '12' }], emails: [{ ...emptyEmail(), email: 'nope' }] });
    expect(validateDraft(d, 'CREATE')).toEqual({ 'phones.1.number': 'phone_invalid', 'emails.0.email': 'email_invalid' });
    expect(validateDraft(draft({ phones: [{ ...emptyPhone(), number: '933' }] }), 'CREATE')).toEqual({});
  });
  it('ADD_PHONE needs a number or an extension', () => {
    expect(validateDraft(draft({ firstName: 'A', phones: [emptyPhone()] }), 'ADD_PHONE')).toEqual({ 'phones.0.number': 'phone_empty' });
  });
  it('AVATAR needs a selected file, and images only', () => {
    expect(validateDraft(emptyDraft(), 'AVATAR', null)).toEqual({ avatar: 'required' });
    expect(validateDraft(emptyDraft(), 'AVATAR', new File(['x'], 'a.txt', { type: 'text/plain' }))).toEqual({ avatar: 'not_image' });
    expect(validateDraft(emptyDraft(), 'AVATAR', new File(['x'], 'a.png', { type: 'image/png' }))).toEqual({});
  });
  it('errors show after a submit attempt, or when touched and invalid', () => {
    const errors = { firstName: 'required' as const };
    expect(visibleError(errors, 'firstName', { submitted: false, touched: new Set() })).toBeUndefined();
    expect(visibleError(errors, 'firstName', { submitted: false, touched: new Set(['firstName']) })).toBe('required');
    expect(visibleError(errors, 'firstName', { submitted: true, touched: new Set() })).toBe('required');
    expect(visibleError(errors, 'lastName', { submitted: true, touched: new Set(['lastName']) })).toBeUndefined();
  });
  it('server problem paths map onto the form fields', () => {
    expect(problemField('phone_numbers.2.number')).toBe('phones.2.number');
    expect(problemField('emails.0.email')).toBe('emails.0.email');
    expect(problemField('instant_messengers.1.name')).toBe('ims.1.name');
    expect(problemField('addresses.0.zip_plus_four')).toBe('addresses.0.zip');
    expect(problemField('addresses.0.state')).toBe('addresses.0.state');
  });
  it('knows when there are unsaved changes', () => {
    const a = emptyDraft();
    expect(isDirty(a, structuredClone(a))).toBe(false);
    expect(isDirty(a, { ...a, notes: 'x' })).toBe(true);
  });
});

describe('route search params (contact, screen, editState)', () => {
  it('keeps valid params and drops the rest', () => {
    expect(validateContactsSearch({ contact: 'p12', screen: 'form', editState: 'EDIT', group: 'favorites', q: ' ada ' })).toEqual({ contact: 'p12', screen: 'form', editState: 'EDIT', group: 'favorites', q: ' ada ' });
    expect(validateContactsSearch({ contact: 'x', screen: 'form', editState: 'NOPE', group: 'nope', q: '  ' })).toEqual({});
    expect(validateContactsSearch({ screen: 'form' })).toEqual({});
  });
  it('the default group is USER and is left out of the URL', () => {
    expect(validateContactsSearch({ group: 'user' })).toEqual({});
    expect(parseContactsSearch({})).toEqual({ group: 'user' });
    for (const mode of ['CREATE', 'EDIT', 'EDIT_USER', 'ADD_PHONE', 'AVATAR']) expect(parseContactsSearch({ screen: 'form', editState: mode }).editState).toBe(mode);
  });
  it('the own profile has no contacts address: it is edited in the preferences\' Profile panel', () => {
    expect(validateContactsSearch({ contact: 'u7', screen: 'form', editState: 'EDIT_PROFILE' })).toEqual({ contact: 'u7' });
  });
});
