// Adds up the JSON reports of every runner into one closing line: "N passed, N failed".
// usage: summarise-tests.mjs RESULTS_DIR REPORT...   (REPORT: a report's name without .json)
// A runner named here that left no report, or whose files or setup failed before any test ran,
// counts as failed: a suite that could not start must never vanish from the line.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...expected] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];

for (const name of expected) {
  if (!existsSync(join(dir, `${name}.json`))) {
    failed += 1;
    problems.push(`${name}: did not run or left no report (counted as 1 failed)`);
  }
}

for (const f of readdirSync(dir)) {
  if (!f.endsWith('.json')) continue;
  const name = f.slice(0, -5);
  let r;
  try {
    r = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  } catch {
    failed += 1;
    problems.push(`${name}: unreadable report (counted as 1 failed)`);
    continue;
  }
  if (name.startsWith('step-')) {
    // A step that is not a test runner (type check, client build): only its failure is counted.
    if (!r.ok) {
      failed += 1;
      problems.push(`${r.step}: failed (counted as 1 failed)`);
    }
  } else if ('numPassedTests' in r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    // A test file that failed to load, or a global setup that threw, fails no test but ran none.
    for (const file of r.testResults ?? []) {
      const anyFailed = (file.assertionResults ?? []).some((a) => a.status === 'failed');
      if (file.status === 'failed' && !anyFailed) {
        failed += 1;
        problems.push(`${name}: ${file.name}: ${String(file.message || 'failed before its tests ran').split('\n')[0]} (counted as 1 failed)`);
      }
    }
    if (r.numTotalTests === 0 && r.success === false && !(r.testResults ?? []).length) {
      failed += 1;
      problems.push(`${name}: failed before any test ran (counted as 1 failed)`);
    }
  } else if (r.stats) {
    passed += r.stats.expected;
    failed += r.stats.unexpected + r.stats.flaky;
    skipped += r.stats.skipped;
    // Playwright's global setup or a spec that failed to load reports errors and no test.
    const errors = (r.errors ?? []).length;
    if (errors) {
      failed += errors;
      problems.push(`${name}: ${errors} error(s) outside tests, e.g. ${String(r.errors[0].message ?? '').split('\n')[0]} (counted as failed)`);
    }
  }
}
for (const p of problems) console.log(p);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
