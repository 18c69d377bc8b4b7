/**
 * The server's layout (docs/ARCHITECTURE.md, "Server"): a feature's routes read requests and
 * decide, and its repository queries. Route files left in server/routes/ before their move to a
 * feature folder are listed here, so that the list can only shrink.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const SERVER = path.resolve(import.meta.dirname, '../../server');
const NOT_YET_MOVED = ['routes/analytics.ts', 'routes/auth.ts', 'routes/config.ts', 'routes/health.ts', 'routes/sip-internal.ts', 'routes/sip.ts'];

it('keeps SQL out of the files that register routes', () => {
  const routeFiles = (readdirSync(SERVER, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .filter((f) => /\b(app|scope)\.(get|post|put|patch|delete)\(/.test(readFileSync(path.join(SERVER, f), 'utf8')));
  const withSql = routeFiles.filter((f) => !NOT_YET_MOVED.includes(f) && /\.query\s*(<|\()/.test(readFileSync(path.join(SERVER, f), 'utf8')));
  expect(withSql).toEqual([]);
});
