import type { ForwardSetting } from '../../src/wire/calling';
import { IdParam } from '../../src/wire/common';
import type { FindMe, InboundRoute, InboundRoutes } from '../../src/wire/inbound';
import type { Queryable } from '../db/types';
import { RING_TIME_MS } from '../services/kamailio';
import type { VoicemailBox } from '../voicemail/deposit';
import { decideRoute, encodeDecision, type CalleeRules, type Decision, type RouteEvent } from './decision';
import { isExtension } from './extension';

interface CalleeRow {
  organization_id: number;
  extension: string;
  do_not_disturb: boolean | null;
  forward_always: ForwardSetting | null;
  forward_default: ForwardSetting | null;
  inbound_routes: InboundRoutes | null;
  find_me: FindMe | null;
}

/** An id a rule may store (a user or group id): digits that fit PostgreSQL's integer. */
const storedId = (v: string | null): v is string => IdParam.safeParse({ id: v }).success;

/** Every rule of the callee, and what their box, ext and group values name: two or three queries. */
export async function calleeRules(db: Queryable, callee: string): Promise<CalleeRules | null> {
  if (!isExtension(callee)) return null;
  const { rows } = await db.query<CalleeRow>(
    `SELECT u.organization_id, u.extension, r.do_not_disturb, r.forward_always, r.forward_default, r.inbound_routes, r.find_me
       FROM users u LEFT JOIN user_call_routing r ON r.user_id = u.id
      WHERE u.extension = $1 ORDER BY u.id LIMIT 1`,
    [callee],
  );
  const row = rows[0];
  if (!row) return null;
  const routes: InboundRoute[] = [
    ...(row.inbound_routes ? Object.values(row.inbound_routes) : []),
    ...(row.find_me ? [row.find_me.afterHoursNextStep, row.find_me.simultaneous_next_step] : []),
  ];
  const userIds = routes.filter((r) => r.drop === 'box' || r.drop === 'ext').map((r) => r.value).filter(storedId);
  const groupIds = routes.filter((r) => r.drop === 'group').map((r) => r.value).filter(storedId);
  const [users, groups] = await Promise.all([
    userIds.length
      ? db.query<{ id: string; extension: string }>(
        `SELECT id::text AS id, extension FROM users WHERE organization_id = $1 AND id = ANY($2::int[]) AND extension IS NOT NULL`,
        [row.organization_id, userIds],
      )
      : { rows: [] },
    groupIds.length
      ? db.query<{ id: string; extensions: string[] }>(
        `SELECT g.id::text AS id, array_agg(u.extension) AS extensions
           FROM extension_groups g JOIN extension_group_members m ON m.group_id = g.id
           JOIN users u ON u.id = m.user_id AND u.organization_id = g.organization_id AND u.extension IS NOT NULL
          WHERE g.organization_id = $1 AND g.id = ANY($2::int[]) GROUP BY g.id`,
        [row.organization_id, groupIds],
      )
      : { rows: [] },
  ]);
  return {
    extension: row.extension,
    dnd: row.do_not_disturb ?? false,
    forwardAlways: row.forward_always,
    forwardDefault: row.forward_default,
    inbound: row.inbound_routes,
    findMe: row.find_me,
    extensions: new Map(users.rows.map((u) => [u.id, u.extension])),
    groups: new Map(groups.rows.map((g) => [g.id, g.extensions])),
    timeZone: null,
  };
}

/** The decision for a call to `callee`, with voicemail only while the voicemail phone answers for that box. */
export async function routeCall(db: Queryable, callee: string, event: RouteEvent, box?: VoicemailBox | null, now = new Date()): Promise<Decision | null> {
  const rules = await calleeRules(db, callee);
  if (!rules) return null;
  const decision = decideRoute(rules, { event, now, ringSeconds: RING_TIME_MS / 1000 });
  if ((decision.action === 'voicemail' || decision.action === 'greeting') && !(box?.ready && (await box.open(decision.box)))) {
    // No voicemail phone: what would happen without the rule.
    return event === 'incoming' ? { action: 'ring', seconds: RING_TIME_MS / 1000 } : { action: 'none' };
  }
  return decision;
}

/**
 * What Kamailio reads for a call to `callee` (encodeDecision: `ring`, `dnd`, `forward:<number>`,
 * `voicemail:<mailbox>`, …), asked at a new call, and again with the failure's event when the
 * callee could not take it (or is on do-not-disturb). `voicemail` (the extension dialled with a
 * trailing *) answers `voicemail:<mailbox>` or `none`.
 */
export async function routingDecision(db: Queryable, callee: string, on?: RouteEvent | 'voicemail', box?: VoicemailBox | null): Promise<string> {
  if (on === 'voicemail') {
    const user = isExtension(callee) ? await db.query('SELECT 1 FROM users WHERE extension = $1 LIMIT 1', [callee]) : null;
    return user?.rows.length && box?.ready && (await box.open(callee)) ? `voicemail:${callee}` : 'none';
  }
  const event = on ?? 'incoming';
  const decision = await routeCall(db, callee, event, box);
  return decision ? encodeDecision(decision, event) : 'ring';
}
