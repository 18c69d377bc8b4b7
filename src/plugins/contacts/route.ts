import { CONTACT_GROUPS, DEFAULT_CONTACT_GROUP, type ContactGroup } from '../../wire/contactGroups';
import { isFormMode, type FormMode } from './modes';

/** The screen's URL: `contact` (selected id), `screen` (`form` while the form is open), `editState` (form mode), `group`, `q`. */
export interface ContactsSearch {
  contact?: string;
  screen?: 'form';
  editState?: FormMode;
  group: ContactGroup;
  q?: string;
}

export function validateContactsSearch(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof raw.contact === 'string' && /^[up]\d{1,10}$/.test(raw.contact)) out.contact = raw.contact;
  // One's own profile is edited in the preferences' Profile panel, not at a contacts address.
  if (raw.screen === 'form' && isFormMode(raw.editState) && raw.editState !== 'EDIT_PROFILE') {
    out.screen = 'form';
    out.editState = raw.editState;
  }
  if (typeof raw.group === 'string' && (CONTACT_GROUPS as readonly string[]).includes(raw.group) && raw.group !== DEFAULT_CONTACT_GROUP) out.group = raw.group;
  if (typeof raw.q === 'string' && raw.q.trim()) out.q = raw.q.slice(0, 200);
  return out;
}

export function parseContactsSearch(raw: Record<string, unknown>): ContactsSearch {
  const v = validateContactsSearch(raw) as Partial<ContactsSearch>;
  return { ...v, group: v.group ?? DEFAULT_CONTACT_GROUP };
}
