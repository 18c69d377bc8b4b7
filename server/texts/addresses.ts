import { createHash } from 'node:crypto';
import { textsHost } from '../../src/wire/texts';

const digits = (e164: string) => e164.replace(/\D/g, '');

/**
 * A conversation's address, the same on every client of the user and in ejabberd's archive:
 * `c.<own digits>.<other digits>` for SMS, `t.<own digits>.<hash of the members>` for a group text
 * (more than one other number), at the texts host (no XMPP account lives there).
 */
export function conversationJid(domain: string, did: string, members: readonly string[]): string {
  const sorted = [...new Set(members)].sort();
  if (sorted.length === 1) return `c.${digits(did)}.${digits(sorted[0]!)}@${textsHost(domain)}`;
  const hash = createHash('sha256').update(sorted.join(',')).digest('hex').slice(0, 16);
  return `t.${digits(did)}.${hash}@${textsHost(domain)}`;
}

export const conversationKind = (members: readonly string[]) => (new Set(members).size > 1 ? ('group_sms' as const) : ('sms' as const));
