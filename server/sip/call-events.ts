import * as z from 'zod/mini';
import type { Queryable } from '../db/types';
import { partyAt } from './extension';
import { upsertCallHistory, type CallHistoryRow } from './repository';

/** A SIP user part as Kamailio reports it: digits, optionally with +, * or # (no free text reaches SQL). */
export const SipNumber = z.string().check(z.regex(/^\+?[0-9*#]{1,32}$/));

/** What Kamailio reports of a call: its start, its end, or its failure. */
export const CallEventQuery = z.object({
  event: z.enum(['start', 'end', 'failed']),
  call_id: z.string().check(z.minLength(1), z.maxLength(255)),
  /** An outside caller may be anonymous or alphanumeric; only an extension ever matches a user. */
  caller: z.string().check(z.regex(/^[\w+*#.@-]{1,64}$/)),
  callee: SipNumber,
  /** Unix seconds when the INVITE arrived. */
  t0: z.coerce.number().check(z.int(), z.gte(0)),
  /** Seconds the call was connected (end). */
  duration: z.optional(z.coerce.number().check(z.int(), z.gte(0))),
  /** The mailbox, when the call went to voicemail. */
  voicemail: z.optional(z.string().check(z.regex(/^[0-9]{1,5}$/))),
});
export type CallEvent = z.output<typeof CallEventQuery>;

/**
 * One call's history rows, one per party who is a user, keyed by SIP Call-ID so that repeated
 * reports (start, then end) update rather than duplicate. A failed call is unanswered for both
 * (for the callee: missed); an answered call is never downgraded by a late failure report.
 */
export async function recordCallEvent(db: Queryable, e: CallEvent): Promise<{ rows: number; callerId: number | null; calleeId: number | null }> {
  // A call that went to voicemail: the voicemail phone answered it, the callee did not (missed).
  const [from, to] = await Promise.all([partyAt(db, e.caller), partyAt(db, e.voicemail ?? e.callee)]);
  const call = {
    callTime: new Date(e.t0 * 1000).toISOString(),
    sourcePhone: e.caller,
    destPhone: e.voicemail ?? e.callee,
    duration: e.event === 'end' ? (e.duration ?? 0) : 0,
    sipCallId: e.call_id,
  };
  const disposition = e.event === 'failed' ? 'UNANSWERED' : 'ANSWERED';
  const calleeDisposition = e.voicemail ? 'UNANSWERED' : disposition;
  const rows: CallHistoryRow[] = [];
  // The row describes the other party: its name when it is a colleague, the number otherwise.
  if (from) rows.push({ ...call, userId: from.id, direction: 'outbound', otherName: to?.name ?? null, disposition });
  if (to && to.id !== from?.id) rows.push({ ...call, userId: to.id, direction: 'inbound', otherName: from?.name ?? null, disposition: calleeDisposition });
  for (const row of rows) await upsertCallHistory(db, row);
  return { rows: rows.length, callerId: from?.id ?? null, calleeId: to?.id ?? null };
}
