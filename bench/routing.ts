/**
 * route_decision_p95_ms (issue 20, budget ≤ 5): the API's answer to Kamailio for a routed call
 * (GET /internal/sip/route, what Kamailio asks at every incoming call and failure), the real API in
 * this process on embedded PostgreSQL, with 1000 extra users each with DND off, a default forward,
 * all four inbound rules (a colleague, a box, a group, a number) and a find-me list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { migrate } from '../server/db/migrate';
import { openDb } from '../server/db/open';
import { seedDemo } from '../server/seed';
import { loadOrCreateSecret, SECRET_NAMES } from '../server/services/layout';
import { percentile, round1 } from './measure';

const USERS = 1000;
const FIRST_EXTENSION = 30000;
const CALLS = 2000;
const EVENTS = ['', '&on=busy', '&on=noanswer', '&on=offline', '&on=huntfailed'];

export async function benchRouting(runtimeRoot: string): Promise<Record<string, number>> {
  const runtimeDir = mkdtempSync(join(runtimeRoot, 'bench-routing-'));
  const db = await openDb({ runtimeDir });
  try {
    await migrate(db);
    await seedDemo(db);
    await db.query(
      `INSERT INTO users (organization_id, username, password_hash, first_name, last_name, email, extension, role_id, level)
       SELECT organization_id, 'bench' || n, '!', 'Bench', 'User ' || n, 'bench' || n || '@acme.example', ($2 + n)::text, 3, 'customer'
         FROM users, generate_series(0, $1 - 1) AS n WHERE username = 'olivia'`,
      [USERS, FIRST_EXTENSION],
    );
    const group = await db.query<{ id: number }>('SELECT id FROM extension_groups LIMIT 1');
    // Each user's rules name the next user (a colleague and their box), the demo group and a number.
    await db.query(
      `INSERT INTO user_call_routing (user_id, forward_default, inbound_routes, find_me)
       SELECT u.id,
              jsonb_build_object('enabled', true, 'destination', jsonb_build_object('destination_type', 'box', 'destination_id', u.id::text, 'destination_name', NULL, 'destination_parameter', u.extension)),
              jsonb_build_object(
                'routeAlways', jsonb_build_object('drop', NULL, 'value', NULL, 'phoneTime', NULL),
                'routeBusy', jsonb_build_object('drop', 'ext', 'value', next.id::text, 'phoneTime', NULL),
                'routeNoAnswer', jsonb_build_object('drop', 'findme', 'value', NULL, 'phoneTime', NULL),
                'routeOffline', jsonb_build_object('drop', 'group', 'value', $1::text, 'phoneTime', NULL)),
              jsonb_build_object('ring_strategy', 'sequential', 'recordName', false, 'announceBetween', false, 'startTime', '00:00:00', 'endTime', '23:59:59',
                'locations', jsonb_build_array(
                  jsonb_build_object('type', 'browser', 'value', NULL, 'number', NULL, 'isActive', true, 'ringTime', 10),
                  jsonb_build_object('type', 'mobile', 'value', 'Mobile', 'number', '5550001111', 'isActive', true, 'ringTime', 20)),
                'afterHoursNextStep', jsonb_build_object('drop', 'box', 'value', next.id::text, 'phoneTime', NULL),
                'simultaneous_next_step', jsonb_build_object('drop', 'box', 'value', u.id::text, 'phoneTime', NULL))
         FROM users u JOIN users next ON next.extension = ((u.extension::int + 1 - $2) % $3 + $2)::text
        WHERE u.username LIKE 'bench%'`,
      [group.rows[0]!.id, FIRST_EXTENSION, USERS],
    );
    const app = await buildApp({ db, runtimeDir });
    try {
      await app.ready();
      const secret = (await loadOrCreateSecret(runtimeDir, SECRET_NAMES.internalApi)).toString('base64url');
      const ask = async (i: number) => {
        const url = `/internal/sip/route?callee=${FIRST_EXTENSION + ((i * 7919) % USERS)}${EVENTS[i % EVENTS.length]}`;
        const t0 = performance.now();
        const res = await app.inject({ url, headers: { 'x-uc-internal': secret } });
        const ms = performance.now() - t0;
        if (res.statusCode !== 200 || res.body === '') throw new Error(`routing bench: ${url} answered ${res.statusCode} ${res.body}`);
        return ms;
      };
      for (let i = 0; i < 200; i++) await ask(i); // warm-up: JIT, the pool, the planner
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) times.push(await ask(i));
      return { route_decision_p50_ms: round1(percentile(times, 50)), route_decision_p95_ms: round1(percentile(times, 95)) };
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    rmSync(runtimeDir, { recursive: true, force: true });
  }
}
