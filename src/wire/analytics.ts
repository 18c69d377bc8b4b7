import * as z from 'zod/mini';

/** `POST /v1/analytics`: one client-side usage event. */
export const AnalyticsEvent = z.object({
  action_type: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  session_id: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
});
export type AnalyticsEvent = z.infer<typeof AnalyticsEvent>;
