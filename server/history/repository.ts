import type { CallType, HistoryPageWire, HistoryRecordWire } from '../../src/wire/history';
import type { SortDirection } from '../../src/wire/common';
import type { Queryable } from '../db/types';
import { termPatterns } from './filters';

export interface HistoryCriteria {
  userId: number;
  primaryOnly: boolean;
  direction: SortDirection;
  offset: number;
  limit: number;
  term?: string;
  /** Inclusive lower bound. */
  from?: Date;
  /** Exclusive upper bound. */
  to?: Date;
  /** Undefined: every type. */
  callTypes?: CallType[];
}

const CALL_TYPE_SQL: Record<CallType, string> = {
  inbound: `(direction = 'inbound' AND disposition = 'ANSWERED')`,
  missed: `(direction = 'inbound' AND disposition = 'UNANSWERED')`,
  outbound: `direction = 'outbound'`,
};

function whereClause(c: HistoryCriteria): { sql: string; params: unknown[] } {
  const params: unknown[] = [c.userId];
  const p = (value: unknown) => `$${params.push(value)}`;
  const conditions = ['user_id = $1'];
  if (c.primaryOnly) conditions.push('is_primary');
  if (c.from) conditions.push(`call_time >= ${p(c.from.toISOString())}::timestamptz`);
  if (c.to) conditions.push(`call_time < ${p(c.to.toISOString())}::timestamptz`);
  if (c.callTypes) conditions.push(`(${c.callTypes.map((t) => CALL_TYPE_SQL[t]).join(' OR ')})`);
  const term = termPatterns(c.term);
  if (term) {
    // search_name is stored lower-cased; lower() on the pattern keeps one case-folding (Postgres').
    const byName = `search_name LIKE lower(${p(term.name)})`;
    conditions.push(term.digits ? `(${byName} OR search_digits LIKE ${p(term.digits)})` : byName);
  }
  return { sql: conditions.join(' AND '), params };
}

interface HistoryRow extends Omit<HistoryRecordWire, 'call_time'> {
  call_time: Date | string;
}

export async function findHistory(db: Queryable, c: HistoryCriteria): Promise<HistoryPageWire> {
  const where = whereClause(c);
  const order = c.direction === 'asc' ? 'ASC' : 'DESC';
  const pageParams = [...where.params, c.limit, String(c.offset)];
  const [page, count] = await Promise.all([
    db.query<HistoryRow>(
      `SELECT id, call_time, direction, disposition, source_phone, dest_phone, duration, is_primary, caller_id, cnam
         FROM call_history
        WHERE ${where.sql}
        ORDER BY call_time ${order}, id ${order}
        LIMIT $${pageParams.length - 1} OFFSET $${pageParams.length}::bigint`,
      pageParams,
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM call_history WHERE ${where.sql}`, where.params),
  ]);
  return {
    items: page.rows.map((r) => ({ ...r, call_time: new Date(r.call_time).toISOString() })),
    total: count.rows[0]?.total ?? 0,
    offset: c.offset,
    limit: c.limit,
  };
}
