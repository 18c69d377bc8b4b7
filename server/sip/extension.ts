/** Extensions: which numbers are one, whose they are, and the caller's own. */
import { SIP_NOT_CONFIGURED } from '../../src/wire/services';
import type { Queryable } from '../db/types';
import { ApiError, unauthorized } from '../errors';
import { extensionRow, userByExtension, type Party } from './repository';

/** Extensions are 1–5 digits (the dial plan, which Kamailio routes to registered users); anything longer is an outside number. */
export const isExtension = (n: string) => /^[0-9]{1,5}$/.test(n);

/** The user a dialled or calling number belongs to: only an extension ever matches one. */
export async function partyAt(db: Queryable, number: string): Promise<Party | null> {
  return isExtension(number) ? userByExtension(db, number) : null;
}

const sipNotConfigured = () => new ApiError(404, SIP_NOT_CONFIGURED, 'Calling is not configured for this user');

/** The caller's extension, or 404 `sip_not_configured` when the user has none (or one that cannot register). */
export async function extensionOf(db: Queryable, userId: number): Promise<string> {
  const user = await extensionRow(db, userId);
  if (!user) throw unauthorized('User no longer exists');
  if (!user.extension || !isExtension(user.extension)) throw sipNotConfigured();
  return user.extension;
}
