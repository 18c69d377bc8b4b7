/**
 * The server's layout (docs/ARCHITECTURE.md, "Server"): a feature's routes read requests and
 * decide, and its repository queries. Every file of server/ that registers an endpoint is a route
 * file, found by what it does rather than by a list, so a new or moved one is checked without being
 * named here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(import.meta.dirname, '../../server');

/** `app.get('/v1/…'`, `scope.post(\`/…\``, `app.route({`, or a `register…Routes` export. */
const REGISTERS_ROUTES = [
  /\.(get|post|put|patch|delete|head|options|all)\(\s*['"`]\//,
  /\.route\(\s*\{/,
  /export\s+(async\s+)?function\s+register\w*Routes\b/,
];

/** Comments may speak of SELECTs and queries; code and strings may not. */
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** A query call, or SQL text that some other helper would run. */
const SQL = [
  /\.query\s*(<|\()/,
  /\b(db|tx)\.exec\(/,
  /\bSELECT\s+[\w*(]/,
  /\bINSERT\s+INTO\b/,
  /\bUPDATE\s+\w+(\s+AS\s+\w+)?\s+SET\b/,
  /\bDELETE\s+FROM\b/,
  /\bWITH\s+\w+\s+AS\s*\(/,
];

const holdsSql = (source: string) => SQL.some((re) => re.test(withoutComments(source)));

const serverFiles = () =>
  (readdirSync(SERVER, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

const read = (f: string) => readFileSync(path.join(SERVER, f), 'utf8');

const routeFiles = () =>
  serverFiles().filter((f) => /(^|\/|-)routes\.ts$/.test(f) || REGISTERS_ROUTES.some((re) => re.test(withoutComments(read(f)))));

describe('server layout', () => {
  it('finds the route files, and SQL in a route file', () => {
    // The detectors themselves, so that a change to them cannot make the checks below pass vacuously.
    const files = routeFiles();
    for (const f of ['auth/routes.ts', 'sip/routes.ts', 'history/routes.ts', 'chat/rooms.ts']) expect(files).toContain(f);
    expect(files.length).toBeGreaterThanOrEqual(18);
    expect(holdsSql(`const { rows } = await db.query<{ id: number }>('SELECT id FROM users WHERE id = $1', [id]);`)).toBe(true);
    expect(holdsSql(`await tx.query(sql, params);`)).toBe(true);
    expect(holdsSql('const sql = `UPDATE sip_registration_holders SET expires_at = now()`;')).toBe(true);
    expect(holdsSql(`// SELECT the rows here\nreturn findHistory(db, criteria);`)).toBe(false);
    expect(holdsSql(`return reply.code(404).send({ error: 'not_found' });`)).toBe(false);
  });

  it('puts every route file in a feature folder, server/<feature>/', () => {
    const misplaced = routeFiles().filter((f) => {
      const parts = f.split('/');
      // A folder of routes is not a feature: each endpoint lives with the feature it serves.
      return parts.length !== 2 || parts[0] === 'routes';
    });
    expect(misplaced).toEqual([]);
  });

  it('keeps SQL out of the files that register routes', () => {
    const withSql = routeFiles().filter((f) => holdsSql(read(f)));
    expect(withSql).toEqual([]);
  });
});
