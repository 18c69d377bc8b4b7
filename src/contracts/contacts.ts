import { serviceKey } from '../kernel';

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
