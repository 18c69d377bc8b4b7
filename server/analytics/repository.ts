import type { AnalyticsEvent } from '../../src/wire/analytics';
import type { Queryable } from '../db/types';

export async function recordAnalyticsEvent(db: Queryable, userId: number, event: AnalyticsEvent): Promise<void> {
  await db.query('INSERT INTO analytics_events (user_id, action_type, session_id) VALUES ($1, $2, $3)', [userId, event.action_type, event.session_id]);
}
