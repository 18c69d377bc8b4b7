import * as z from 'zod/mini';
import { queryInt } from './common';

/** One recorded call of `GET /v1/call-recordings`. `timestamp` is UTC ISO 8601, `duration` whole seconds. */
export const CallRecordingWire = z.object({
  recording_id: z.int(),
  direction: z.enum(['IN', 'OUT']),
  timestamp: z.string(),
  remoteParty: z.string(),
  duration: z.int().check(z.gte(0)),
  media_url: z.string(),
  cnam: z.nullable(z.string()),
});
export type CallRecordingWire = z.infer<typeof CallRecordingWire>;

export const CallRecordingsPage = z.object({
  items: z.array(CallRecordingWire),
  total: z.int(),
  offset: z.int(),
  limit: z.int(),
});
export type CallRecordingsPage = z.infer<typeof CallRecordingsPage>;

/** Dates are inclusive ISO days (YYYY-MM-DD) in the user's zone `tz` (minutes east of UTC). Newest first. */
export const CallRecordingsQuery = z.object({
  offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0),
  limit: queryInt(1, 500, 50),
  search_term: z.optional(z.string().check(z.maxLength(200))),
  start_date: z.optional(z.iso.date()),
  end_date: z.optional(z.iso.date()),
  tz: queryInt(-840, 840, 0),
});
export type CallRecordingsQuery = z.input<typeof CallRecordingsQuery>;

/** `GET /v1/organizations/failover`: while `fail_over` is true recordings cannot be played. */
export const FailoverResponse = z.object({ fail_over: z.boolean() });
export type FailoverResponse = z.infer<typeof FailoverResponse>;

/**
 * `PUT /v1/organizations/failover` (this server's own addition; the product's catalogue only has the GET):
 * an account owner or administrator declares that the organisation runs on its failover site, and
 * ends it. Recordings cannot be played meanwhile.
 */
export const FailoverUpdate = z.object({ fail_over: z.boolean() });
export type FailoverUpdate = z.infer<typeof FailoverUpdate>;
