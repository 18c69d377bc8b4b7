/** Call recordings as stored: the user's recorded calls, their audio, and the organisation's failover switch. */
import type { Queryable } from '../db/types';

export interface RecordingRow {
  id: number;
  direction: 'IN' | 'OUT';
  started_at: Date | string;
  remote_party: string;
  duration: number;
  cnam: string | null;
}

export interface RecordingFilter {
  userId: number;
  from?: Date;
  to?: Date;
  /** termPatterns' name and digits patterns, when searching. */
  term?: { name: string; digits: string | null } | null;
  limit: number;
  offset: number;
}

/** One page of the user's recordings, newest first, with the count of all that match. */
export async function findRecordings(db: Queryable, f: RecordingFilter): Promise<{ rows: RecordingRow[]; total: number }> {
  const params: unknown[] = [f.userId, f.from?.toISOString() ?? null, f.to?.toISOString() ?? null];
  let where = 'user_id = $1 AND ($2::timestamptz IS NULL OR started_at >= $2) AND ($3::timestamptz IS NULL OR started_at < $3)';
  if (f.term) {
    params.push(f.term.name, f.term.digits);
    where += ' AND (search_name LIKE lower($4) OR ($5::text IS NOT NULL AND search_digits LIKE $5))';
  }
  const n = params.length;
  const { rows } = await db.query<RecordingRow & { total: number }>(
    `SELECT id, direction, started_at, remote_party, duration, cnam, count(*) OVER ()::int AS total
     FROM call_recordings WHERE ${where} ORDER BY started_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, f.limit, f.offset],
  );
  let total = rows[0]?.total ?? 0;
  // Past the end there is no row to carry the window count.
  if (!rows.length && f.offset > 0) {
    const c = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM call_recordings WHERE ${where}`, params);
    total = c.rows[0]?.n ?? 0;
  }
  return { rows, total };
}

/** The audio of one of the user's recordings; null when it is not theirs or does not exist. */
export async function recordingAudio(db: Queryable, userId: number, id: number): Promise<{ bytes: Uint8Array; content_type: string } | null> {
  const { rows } = await db.query<{ bytes: Uint8Array; content_type: string }>(
    'SELECT b.bytes, b.content_type FROM call_recordings r JOIN media_blobs b ON b.id = r.media_id WHERE r.id = $1 AND r.user_id = $2',
    [id, userId],
  );
  return rows[0] ?? null;
}

export async function failover(db: Queryable, organizationId: number): Promise<boolean> {
  const { rows } = await db.query<{ fail_over: boolean }>('SELECT fail_over FROM organizations WHERE id = $1', [organizationId]);
  return rows[0]?.fail_over ?? false;
}

export async function setFailover(db: Queryable, organizationId: number, on: boolean): Promise<void> {
  await db.query('UPDATE organizations SET fail_over = $2 WHERE id = $1', [organizationId, on]);
}
