import Papa from 'papaparse';
import { passwordStrong } from '../../src/wire/password';
import { CSV_MAX_ROWS, CSV_REQUIRED_COLUMNS, type OrgUser, type RowRefusal } from '../../src/wire/wizard';
import { ApiError } from '../errors';

/** One data row of the bulk import, checked on its own (duplicates and taken names are checked across rows). */
export interface CsvUser {
  /** The row's line in the file (the header is line 1), as a spreadsheet numbers it. */
  line: number;
  username: string;
  first: string;
  last: string;
  enabled: boolean;
  email: string;
  password: string | null;
}
export type CheckedRow = { line: number; username: string; user: CsvUser | null; reasons: RowRefusal[] };

export const REFUSAL_MESSAGES: Record<RowRefusal, string> = {
  usernameMissing: 'Username is empty',
  usernameInvalid: 'Username must be 1 to 64 letters, digits, dots, dashes or underscores, starting and ending with a letter or digit',
  firstNameMissing: 'FirstName is empty',
  lastNameMissing: 'LastName is empty',
  nameTooLong: 'A name has at most 64 characters',
  enabledInvalid: 'Enabled must be Yes or No',
  emailInvalid: 'Email is not an e-mail address',
  passwordWeak: 'Password needs 8 characters with a digit, an upper-case and a lower-case letter and a special character',
  duplicateInFile: 'The same Username is on an earlier row of the file',
  usernameTaken: 'A user with this Username already exists',
  noFreeExtension: 'No free extension is left',
};

const USERNAME = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME_MAX = 64;

/** Header names are matched without case and spaces ("first name" is FirstName), as spreadsheets write them. */
const canonical = (h: string) => h.replace(/[\s_]/g, '').toLowerCase();
const COLUMNS = { username: 'Username', firstname: 'FirstName', lastname: 'LastName', enabled: 'Enabled', email: 'Email', password: 'Password' } as const;

/** Parses the file (papaparse: quotes, embedded commas and newlines, BOM) and checks every row. */
export function checkUsersCsv(text: string): CheckedRow[] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [header, ...data] = parsed.data;
  if (!header) throw new ApiError(400, 'csv_empty', 'The file has no header row');
  const index = new Map<string, number>();
  header.forEach((h, i) => {
    const name = COLUMNS[canonical(h) as keyof typeof COLUMNS];
    if (name && !index.has(name)) index.set(name, i);
  });
  const missing = CSV_REQUIRED_COLUMNS.filter((c) => !index.has(c));
  if (missing.length) throw new ApiError(400, 'csv_columns_missing', `The header row lacks ${missing.join(', ')} (expected: ${CSV_REQUIRED_COLUMNS.join(', ')})`);
  if (data.length === 0) throw new ApiError(400, 'csv_no_rows', 'The file has a header row but no users');
  if (data.length > CSV_MAX_ROWS) throw new ApiError(400, 'csv_too_many_rows', `A file holds at most ${CSV_MAX_ROWS} users`);
  const cell = (row: string[], name: string) => (index.has(name) ? (row[index.get(name)!] ?? '').trim() : '');
  // Line numbers count the header and skipped empty lines only approximately when a quoted cell spans lines; row order is what matters.
  return data.map((row, i) => checkRow(i + 2, (n) => cell(row, n)));
}

function checkRow(line: number, cell: (name: string) => string): CheckedRow {
  const reasons: RowRefusal[] = [];
  const username = cell('Username');
  const first = cell('FirstName');
  const last = cell('LastName');
  const enabled = cell('Enabled').toLowerCase();
  const email = cell('Email');
  const password = cell('Password');
  if (!username) reasons.push('usernameMissing');
  else if (!USERNAME.test(username)) reasons.push('usernameInvalid');
  if (!first) reasons.push('firstNameMissing');
  if (!last) reasons.push('lastNameMissing');
  if (first.length > NAME_MAX || last.length > NAME_MAX) reasons.push('nameTooLong');
  if (enabled !== 'yes' && enabled !== 'no') reasons.push('enabledInvalid');
  if (email && !EMAIL.test(email)) reasons.push('emailInvalid');
  if (password && !passwordStrong(password)) reasons.push('passwordWeak');
  const user = reasons.length ? null : { line, username, first, last, enabled: enabled === 'yes', email, password: password || null };
  return { line, username, user, reasons };
}

/** The organisation's users as a CSV file (the import's columns; cells that a spreadsheet would run as formulas are escaped). */
export function usersCsv(users: readonly OrgUser[]): string {
  return Papa.unparse(
    { fields: ['Username', 'FirstName', 'LastName', 'Enabled', 'Extension', '_service_user_id'], data: users.map((u) => [u.Username, u.FirstName, u.LastName, u.Enabled, u.Extension ?? '', u._service_user_id ?? '']) },
    { escapeFormulae: true },
  );
}
