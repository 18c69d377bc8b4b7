// Adds up the JSON reports of every runner into one closing line: "N passed, N failed".
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const f of readdirSync(dir)) {
  if (!f.endsWith('.json')) continue;
  const r = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  if ('numPassedTests' in r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  } else if (r.stats) {
    passed += r.stats.expected;
    failed += r.stats.unexpected + r.stats.flaky;
    skipped += r.stats.skipped;
  }
}
const pw = join(dir, 'playwright.json');
if (!existsSync(pw)) failed += 1; // the e2e run did not even report
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
