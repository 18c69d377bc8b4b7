/**
 * The closing line of `npm test` ("N passed, N failed") is what CI and people read. A suite that
 * could not start (its servers did not come up, a test file did not load) used to vanish from it:
 * a run whose services and e2e suites never started still said "872 passed, 0 failed".
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';

const run = promisify(execFile);
const script = path.resolve(import.meta.dirname, '..', '..', 'scripts', 'summarise-tests.mjs');
let dir: string;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Vitest's JSON report (the fields the script reads), as measured with vitest 4. */
const vitest = (passed: number, failed: number, files: Array<{ name: string; status: string; message?: string; failedTests?: number }> = []) => ({
  numTotalTests: passed + failed,
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: 0,
  numTodoTests: 0,
  success: failed === 0 && files.every((f) => f.status !== 'failed'),
  testResults: files.map((f) => ({ name: f.name, status: f.status, message: f.message ?? '', assertionResults: Array.from({ length: f.failedTests ?? 0 }, () => ({ status: 'failed' })) })),
});
const playwright = (expected: number, unexpected: number, errors: string[] = []) => ({ stats: { expected, unexpected, flaky: 0, skipped: 0 }, errors: errors.map((message) => ({ message })) });

async function summarise(reports: Record<string, unknown>, expected: string[]): Promise<{ line: string; code: number; out: string }> {
  dir = await mkdtemp(path.join(tmpdir(), 'summary-'));
  for (const [name, body] of Object.entries(reports)) await writeFile(path.join(dir, `${name}.json`), JSON.stringify(body));
  const res = await run(process.execPath, [script, dir, ...expected]).then(
    (r) => ({ out: r.stdout, code: 0 }),
    (e: { stdout: string; code: number }) => ({ out: e.stdout, code: e.code }),
  );
  return { ...res, line: res.out.trim().split('\n').at(-1)! };
}

const ALL = ['vitest', 'vitest-pg', 'vitest-services', 'playwright'];

it('adds up every runner when all ran', async () => {
  const r = await summarise({ vitest: vitest(800, 0), 'vitest-pg': vitest(60, 0), 'vitest-services': vitest(40, 0), playwright: playwright(41, 0) }, ALL);
  expect(r).toMatchObject({ line: '941 passed, 0 failed, 0 skipped', code: 0 });
});

it('counts a suite that left no report as failed, and names it', async () => {
  const r = await summarise({ vitest: vitest(800, 0), 'vitest-pg': vitest(72, 0) }, ALL);
  expect(r.line).toBe('872 passed, 2 failed, 0 skipped');
  expect(r.code).toBe(1);
  expect(r.out).toMatch(/vitest-services: did not run/);
  expect(r.out).toMatch(/playwright: did not run/);
});

it('counts a global setup that threw (no test ran) and a test file that did not load as failed', async () => {
  const r = await summarise(
    {
      vitest: vitest(10, 0, [{ name: 'a.test.ts', status: 'failed', message: "Cannot find module './x'" }]),
      'vitest-services': { ...vitest(0, 0), success: false },
      playwright: playwright(0, 0, ['ejabberd exited (126) before it was ready']),
    },
    ['vitest', 'vitest-services', 'playwright'],
  );
  expect(r.line).toBe('10 passed, 3 failed, 0 skipped');
  expect(r.out).toMatch(/a\.test\.ts: Cannot find module/);
  expect(r.out).toMatch(/ejabberd exited \(126\)/);
});

it('counts a failed step that is not a test runner (type check, build), not a passed one', async () => {
  const r = await summarise({ vitest: vitest(5, 0), 'step-typecheck': { step: 'typecheck', ok: false }, 'step-client-build': { step: 'client-build', ok: true } }, ['vitest']);
  expect(r.line).toBe('5 passed, 1 failed, 0 skipped');
  expect(r.out).toMatch(/typecheck: failed/);
});

it('a file whose own tests failed is not counted twice', async () => {
  const r = await summarise({ vitest: vitest(5, 2, [{ name: 'b.test.ts', status: 'failed', failedTests: 2 }]) }, ['vitest']);
  expect(r.line).toBe('5 passed, 2 failed, 0 skipped');
});
