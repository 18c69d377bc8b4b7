import type { ComponentType } from 'react';
import { serviceKey, type Disposable } from '../kernel';
import type { ContactGroup } from '../wire/contactGroups';

/** The contacts plugin's search provider: commands whose argument is a contact name it (`CommandArgSpec.provider`). */
export const CONTACTS_PROVIDER = 'contacts';
export interface ContactSummary {
  id: string;
  name: string;
  numbers: readonly string[];
}
/** A contact picked in the palette: what it is called there, and whether it is the signed-in user. */
export interface ResolvedContact extends ContactSummary {
  self: boolean;
  /** A colleague's user id (what a meeting invitation names); null for personal and external contacts. */
  userId?: number | null;
  /** The contact's e-mail address, or ''. */
  email?: string;
}
export interface ContactsService {
  /** The contact a phone number belongs to, if any (for caller names in lists). */
  lookupNumber(number: string): ContactSummary | undefined;
  /**
   * The contact behind an entity of the contacts provider (`PaletteEntity.id`, what "Call ▸ Bob"
   * receives), or undefined for any other entity or a contact no longer in the directory. Its name
   * is the one the palette lists (a nameless contact's e-mail or number).
   */
  resolve(entityId: string): ResolvedContact | undefined;
}
export const ContactsApi = serviceKey<ContactsService>('contacts.api');

/** What the own-profile form tells the screen that shows it. */
export interface ProfileEditorProps {
  /** Saved (true) or cancelled (false). */
  onDone(saved: boolean): void;
  /** As the form becomes dirty or clean again; `save` saves what is typed (false: refused, the form says why). */
  onDirty?(dirty: boolean, save: () => Promise<boolean>): void;
}
export interface ProfileEditorService {
  /**
   * The form that edits the signed-in user's profile (names, alias, company, e-mail addresses, phone
   * numbers, address: the contact form's profile mode, which also edits colleagues for
   * administrators), with its strings loaded. The preferences' Profile panel shows it in a dialog.
   */
  load(): Promise<ComponentType<ProfileEditorProps>>;
}
export const ProfileEditor = serviceKey<ProfileEditorService>('contacts.profileEditor');

/**
 * The groups of the directory (the contacts screen's filter), for cards that show a few people
 * (the dashboard). A separate key: the lookups above are what every caller-name list needs.
 */
export interface ContactGroupsService {
  /** The first `limit` contacts of a group in the directory's order; empty until the directory is in. */
  first(group: ContactGroup, limit: number): ResolvedContact[];
  /** Whether the directory has been read at least once (an empty group then means "nobody"). */
  loaded(): boolean;
  /** Told whenever the directory changes: loaded, refreshed, a contact edited. */
  onChange(listener: () => void): Disposable;
}
export const ContactGroupsApi = serviceKey<ContactGroupsService>('contacts.groups');
