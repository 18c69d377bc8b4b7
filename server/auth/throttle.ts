import type { Queryable } from '../db/types';

/**
 * Login throttle: failed sign-ins are counted per account (the username as typed, known or not,
 * so the throttle says nothing about which accounts exist) and per client address, in the
 * database so that every API copy sees the same counts. Past a few free failures each further one
 * blocks that key for a growing time (1 s, 2 s, 4 s … at most 15 min); a window with no failure for
 * 15 min forgets everything. Only failures count: correct sign-ins are never slowed, and a
 * success clears the account's count.
 */
export const THROTTLE = {
  windowSeconds: 15 * 60,
  maxDelaySeconds: 15 * 60,
  /** Failures allowed before delays start. A client address is shared by many people behind one NAT. */
  freeFailures: { account: 5, client: 20 },
} as const;

type Kind = keyof typeof THROTTLE.freeFailures;
export interface ThrottleKey {
  kind: Kind;
  key: string;
}

export const loginKeys = (username: string, clientIp: string): ThrottleKey[] => [
  { kind: 'account', key: `account:${username.trim().toLowerCase()}` },
  { kind: 'client', key: `client:${clientIp}` },
];

/** Seconds to wait after the n-th failure of a window (0 while failures are still free). */
export function delayAfter(kind: Kind, failures: number): number {
  const over = failures - THROTTLE.freeFailures[kind];
  return over <= 0 ? 0 : Math.min(THROTTLE.maxDelaySeconds, 2 ** (over - 1));
}

/** Seconds until every key may try again (0: not blocked). */
export async function blockedFor(db: Queryable, keys: readonly ThrottleKey[]): Promise<number> {
  const { rows } = await db.query<{ wait: number | string | null }>(
    `SELECT ceil(extract(epoch FROM max(blocked_until) - now()))::int AS wait FROM login_failures WHERE key = ANY($1::text[]) AND blocked_until > now()`,
    [keys.map((k) => k.key)],
  );
  return Math.max(0, Number(rows[0]?.wait ?? 0));
}

/** Counts one failure on each key; returns the wait it imposes (0: none yet). */
export async function recordFailure(db: Queryable, keys: readonly ThrottleKey[]): Promise<number> {
  let wait = 0;
  for (const { kind, key } of keys) {
    const { rows } = await db.query<{ failures: number }>(
      `INSERT INTO login_failures AS f (key, failures, last_failure_at) VALUES ($1, 1, now())
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN f.last_failure_at < now() - make_interval(secs => $2) THEN 1 ELSE f.failures + 1 END,
         last_failure_at = now()
       RETURNING failures`,
      [key, THROTTLE.windowSeconds],
    );
    const delay = delayAfter(kind, rows[0]!.failures);
    if (delay > 0) {
      await db.query(`UPDATE login_failures SET blocked_until = now() + make_interval(secs => $2) WHERE key = $1`, [key, delay]);
      wait = Math.max(wait, delay);
    }
  }
  // Housekeeping: forgotten rows go, so sprayed usernames do not pile up.
  await db.query(`DELETE FROM login_failures WHERE last_failure_at < now() - make_interval(secs => $1)`, [THROTTLE.windowSeconds]);
  return wait;
}

/** A correct sign-in clears its account's count (never the client's: one's own account must not reset a spray). */
export async function clearAccount(db: Queryable, keys: readonly ThrottleKey[]): Promise<void> {
  const account = keys.filter((k) => k.kind === 'account').map((k) => k.key);
  await db.query(`DELETE FROM login_failures WHERE key = ANY($1::text[])`, [account]);
}
