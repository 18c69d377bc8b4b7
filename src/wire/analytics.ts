import * as z from 'zod/mini';

/**
 * What the client counts: signing in, calls placed, messages sent, texts sent, and palette commands
 * by command id (`command:telephony.call`). Nothing else is accepted, so no argument, name or number
 * can reach the table: a command id is lowercase words joined by dots (camelCase words allowed).
 */
export const ANALYTICS_ACTIONS = ['sign_in', 'call_placed', 'message_sent', 'text_sent'] as const;
const COMMAND_ACTION = /^command:[a-z][a-z0-9-]*(\.[a-zA-Z][a-zA-Z0-9-]*)+$/;
export const analyticsActionValid = (action: string): boolean => (ANALYTICS_ACTIONS as readonly string[]).includes(action) || COMMAND_ACTION.test(action);
export type AnalyticsAction = (typeof ANALYTICS_ACTIONS)[number] | `command:${string}`;

/** `POST /v1/analytics`: one client-side usage event. session_id is the tab's random id, nothing personal. */
export const AnalyticsEvent = z.object({
  action_type: z.string().check(z.maxLength(100), z.refine(analyticsActionValid, 'unknown_action_type')),
  session_id: z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/, 'invalid_session_id')),
});
export type AnalyticsEvent = z.infer<typeof AnalyticsEvent>;

/** `GET /v1/analytics/summary?days=N` (account owners only): counts per UTC day and action, last N days (default 30). */
export const AnalyticsSummaryQuery = z.object({
  days: z.optional(z.pipe(z.string().check(z.regex(/^\d{1,3}$/, 'days_not_a_number')), z.transform(Number)).check(z.refine((n: number) => n >= 1 && n <= 366, 'days_out_of_range'))),
});
export const AnalyticsSummary = z.object({
  days: z.int(),
  counts: z.array(z.object({ day: z.string(), action_type: z.string(), count: z.int() })),
});
export type AnalyticsSummary = z.infer<typeof AnalyticsSummary>;
