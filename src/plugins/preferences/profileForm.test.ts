import { describe, expect, it } from 'vitest';
import { fieldOfPath, profilePatch, validateProfile, type ProfileDraft } from './profileForm';

const base: ProfileDraft = { firstName: 'Greta', lastName: 'Schmidt', alias: '', company: 'Acme Corp', email: 'greta@acme.example' };

describe('the edit-profile form', () => {
  it('requires the names and an e-mail that looks like one', () => {
    expect(validateProfile(base)).toEqual({});
    expect(validateProfile({ ...base, firstName: ' ', lastName: '', email: '' })).toEqual({ firstName: 'required', lastName: 'required', email: 'required' });
    expect(validateProfile({ ...base, email: 'greta@acme' })).toEqual({ email: 'emailInvalid' });
    expect(validateProfile({ ...base, email: 'gr eta@acme.example' })).toEqual({ email: 'emailInvalid' });
  });

  it('sends only the changed fields, trimmed, and an emptied alias as null', () => {
    expect(profilePatch(base, base)).toEqual({});
    expect(profilePatch(base, { ...base, company: ' Acme Research ', firstName: 'Greta ' })).toEqual({ company: 'Acme Research' });
    expect(profilePatch({ ...base, alias: 'GS' }, { ...base, alias: '  ' })).toEqual({ alias: null });
    expect(profilePatch(base, { ...base, alias: 'GS', email: 'g@acme.example' })).toEqual({ alias: 'GS', email: 'g@acme.example' });
  });

  it('maps the server\'s problem paths to the fields', () => {
    expect(fieldOfPath('first_name')).toBe('firstName');
    expect(fieldOfPath('email')).toBe('email');
    expect(fieldOfPath('new_password')).toBeNull();
  });
});
