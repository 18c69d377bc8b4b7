import { hashPassword } from '../auth/passwords';
import type { Db } from '../db/types';
import { giveDefaultVoicemailForward, insertUsers, NO_PASSWORD_HASH, type NewUser } from '../users/create';
import type { ImportReport, RowRefusal } from '../../src/wire/wizard';
import { checkUsersCsv, REFUSAL_MESSAGES, type CheckedRow, type CsvUser } from './csv';
import { extensionsInUse, highestExtension, lockImports, organisationName, takenUsernames } from './repository';

/** Extensions are 1–5 digits; an organisation without any starts its own block here. */
const FIRST_EXTENSION = 10_000;
const LAST_EXTENSION = 99_999;
/** Imported users are standard, customer-level users (the wizard stays the partner administrators'). */
const IMPORTED_ROLE = 3;

/** The next free extensions after the organisation's highest (every organisation's count: calls route by extension alone). */
function allocate(used: Set<number>, from: number, count: number): number[] {
  const out: number[] = [];
  for (let n = from; n <= LAST_EXTENSION && out.length < count; n++) if (!used.has(n)) out.push(n);
  return out;
}

const refuse = (row: CheckedRow, reason: RowRefusal): CheckedRow => ({ ...row, user: null, reasons: [...row.reasons, reason] });

/**
 * The bulk import of `PATCH /v1/organizations/{orgId}/users`: every row checked, those that pass
 * created in one transaction the way the seed creates users (users/create.ts), the others reported
 * with their reasons. Duplicates: the first row of a username wins, later ones are refused.
 */
export async function importUsers(db: Db, orgId: number, csv: string): Promise<ImportReport> {
  let rows = checkUsersCsv(csv);
  const seen = new Set<string>();
  rows = rows.map((r) => {
    if (!r.user) return r;
    const key = r.username.toLowerCase();
    if (seen.has(key)) return refuse(r, 'duplicateInFile');
    seen.add(key);
    return r;
  });
  // Hashing (scrypt, on libuv's pool) before the transaction: it is the slow part and needs no lock.
  const hashes = new Map<number, string>();
  await Promise.all(rows.map(async (r) => r.user?.password && hashes.set(r.line, await hashPassword(r.user.password))));

  return db.transaction(async (tx) => {
    await lockImports(tx);
    const taken = await takenUsernames(tx, rows.filter((r) => r.user).map((r) => r.username));
    rows = rows.map((r) => (r.user && taken.has(r.username.toLowerCase()) ? refuse(r, 'usernameTaken') : r));
    const ok = rows.filter((r): r is CheckedRow & { user: CsvUser } => r.user !== null);
    const extensions = allocate(await extensionsInUse(tx), ((await highestExtension(tx, orgId)) ?? FIRST_EXTENSION - 1) + 1, ok.length);
    const placed = ok.slice(0, extensions.length);
    const noRoom = new Set(ok.slice(extensions.length).map((r) => r.line));
    rows = rows.map((r) => (noRoom.has(r.line) ? refuse(r, 'noFreeExtension') : r));
    const company = await organisationName(tx, orgId);
    const users: NewUser[] = placed.map((r, i) => ({
      organizationId: orgId,
      username: r.user.username,
      passwordHash: hashes.get(r.line) ?? NO_PASSWORD_HASH,
      first: r.user.first,
      last: r.user.last,
      email: r.user.email,
      extension: String(extensions[i]),
      roleId: IMPORTED_ROLE,
      level: 'customer',
      company,
      alias: null,
      enabled: r.user.enabled,
    }));
    if (users.length) {
      const ids = await insertUsers(tx, users);
      await giveDefaultVoicemailForward(tx, [...ids.values()]);
    }
    return {
      total: rows.length,
      accepted: users.map((u, i) => ({ line: placed[i]!.line, Username: u.username, Extension: u.extension })),
      refused: rows.filter((r) => r.reasons.length).map((r) => ({ line: r.line, Username: r.username, reasons: r.reasons, messages: r.reasons.map((x) => REFUSAL_MESSAGES[x]) })),
    };
  });
}
