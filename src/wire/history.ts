import * as z from 'zod/mini';
import { SortDirection, queryInt } from './common';

export const CallDirection = z.enum(['inbound', 'outbound']);
export const CallDisposition = z.enum(['ANSWERED', 'UNANSWERED']);

/** A call history record as the API sends it (both generations). `duration` is whole seconds. */
export const HistoryRecordWire = z.object({
  id: z.int(),
  call_time: z.string(),
  direction: CallDirection,
  disposition: CallDisposition,
  source_phone: z.string(),
  dest_phone: z.string(),
  duration: z.int().check(z.gte(0)),
  is_primary: z.boolean(),
  caller_id: z.nullable(z.string()),
  cnam: z.nullable(z.string()),
});
export type HistoryRecordWire = z.infer<typeof HistoryRecordWire>;

export const HistoryPageWire = z.object({
  items: z.array(HistoryRecordWire),
  total: z.int(),
  offset: z.int(),
  limit: z.int(),
});
export type HistoryPageWire = z.infer<typeof HistoryPageWire>;

/** First generation: `GET /v1/users/{id}/call-history/primary`. `sort_by` is `call_time:asc|desc`. */
export const HistoryQueryV1 = z.object({
  offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0),
  limit: queryInt(1, 500, 50),
  sort_by: z._default(z.string(), 'call_time:desc'),
  search_terms: z.optional(z.string().check(z.maxLength(200))),
});

export const CALL_TYPES = ['inbound', 'outbound', 'missed'] as const;
export type CallType = (typeof CALL_TYPES)[number];

/** Second generation: `GET /v2/users/{id}/call-history`. Dates are inclusive ISO days (YYYY-MM-DD) in the user's zone offset `tz` (minutes east of UTC). */
export const HistoryQueryV2 = z.object({
  offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0),
  limit: queryInt(1, 500, 50),
  sort: z._default(z.string(), 'desc'),
  term: z.optional(z.string().check(z.maxLength(200))),
  start_date: z.optional(z.iso.date()),
  end_date: z.optional(z.iso.date()),
  tz: queryInt(-840, 840, 0),
  call_type: z.optional(z.string()),
});
export type HistoryQueryV2 = z.input<typeof HistoryQueryV2>;

export { SortDirection };
