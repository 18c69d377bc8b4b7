import type { AnalyticsEvent, AnalyticsSummary } from '../../src/wire/analytics';
import type { Queryable } from '../db/types';

export async function recordAnalyticsEvent(db: Queryable, user: { userId: number; organizationId: number }, event: AnalyticsEvent): Promise<void> {
  await db.query('INSERT INTO analytics_events (user_id, organization_id, action_type, session_id) VALUES ($1, $2, $3, $4)', [
    user.userId,
    user.organizationId,
    event.action_type,
    event.session_id,
  ]);
}

/** Counts per UTC day and action of one organisation over the last `days` days (today included). */
export async function analyticsCounts(db: Queryable, organizationId: number, days: number, now = new Date()): Promise<AnalyticsSummary['counts']> {
  const { rows } = await db.query<{ day: string; action_type: string; count: number }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, action_type, count(*)::int AS count
       FROM analytics_events
      WHERE organization_id = $1 AND created_at >= date_trunc('day', $2::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(days => $3 - 1)
      GROUP BY 1, 2
      ORDER BY 1, 2`,
    [organizationId, now.toISOString(), days],
  );
  return rows;
}
