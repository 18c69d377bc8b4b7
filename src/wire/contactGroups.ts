/**
 * The contacts constants and helpers the client needs at boot (route validation, the refresh timer,
 * reading the directory), apart from the schemas in ./contacts so the first screen does not carry them.
 */
import type { ContactIndexRow, ContactSource } from './contacts';
export const CONTACT_GROUPS = ['all', 'google', 'company', 'personal', 'favorites', 'user', 'speeddial', 'phones', 'meeting'] as const;
export type ContactGroup = (typeof CONTACT_GROUPS)[number];
/** The contacts list opens on the company's users (USER) until another group is chosen. */
export const DEFAULT_CONTACT_GROUP: ContactGroup = 'user';
/** Contacts refresh every 2 h. */
export const CONTACTS_REFRESH_MS = 2 * 60 * 60 * 1000;

/*
 * The same rows as tab-separated text (`GET /v1/contacts/index?format=tsv`): one line per contact,
 * the tuple's fields in order, tabs and line breaks inside values replaced by spaces. Parsing one
 * string is far cheaper for a browser than parsing 50,000 JSON arrays (one long task less).
 */
const flat = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
export function indexRowToTsv(r: ContactIndexRow): string {
  return [flat(r[0]), flat(r[1]), flat(r[2]), flat(r[3]), flat(r[4]), r[5], r[6]].join('\t');
}
export function indexRowFromTsv(line: string): ContactIndexRow {
  const f = line.split('\t');
  return [f[0] ?? '', f[1] ?? '', f[2] ?? '', f[3] ?? '', f[4] ?? '', f[5] === '1' ? 1 : 0, (f[6] ?? 'personal') as ContactSource];
}
