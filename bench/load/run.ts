/**
 * `npm run bench:load [-- sip|xmpp|api]`: how much one machine holds (issue 25), each figure with
 * its load generator, on loopback, the project's real servers started by its own service manager
 * (ports 40000–42999) and stopped by PID. Prints `name=value` lines, then the 1×→10× tables for
 * docs/SCALING.md. About 6–8 minutes on a 2-core machine.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { benchApiLoad } from './api';
import { benchSipLoad } from './sip';
import { benchXmppLoad } from './xmpp';

const only = process.argv[2];
const log = (line: string) => console.error(`  ${line}`);
const figures: Record<string, number> = {};
const tables: string[] = [];
const started = performance.now();
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
const loadAtStart = load();

// XMPP first: its ports are free before the other benches' client connections take ephemeral ports.
if (!only || 'xmpp'.includes(only)) {
  const r = await benchXmppLoad(log);
  Object.assign(figures, r.figures);
  tables.push(...r.table, '');
}
if (!only || 'sip'.includes(only)) {
  const r = await benchSipLoad(log);
  Object.assign(figures, r.figures);
  const row = (unit: string) => (s: (typeof r.calls)[number]) =>
    `| ${s.rate} ${unit} | ${s.attempted} | ${((100 * s.failed) / Math.max(1, s.attempted)).toFixed(1)} % ${Object.keys(s.errors).length ? `(${Object.entries(s.errors).map(([k, v]) => `${v}× ${k}`).join(', ')})` : ''} | ${Object.entries(s.servers).map(([k, v]) => `${k} ${v.cpu} %`).join(', ')}, sipp ${s.sippCpu} % | ${s.udpDrops} |`;
  const head = '| attempted | failed | CPU (% of one core) | UDP drops |';
  tables.push(`| registrations ${head}`, '|---|---|---|---|---|', ...r.registrations.map(row('/s')), '');
  tables.push(`| calls with media ${head}`, '|---|---|---|---|---|', ...r.calls.map(row('/s')), '');
}
if (!only || 'api'.includes(only)) {
  const r = await benchApiLoad(log);
  Object.assign(figures, r.figures);
  tables.push(...r.table, '');
}

for (const [k, v] of Object.entries(figures)) console.log(`${k}=${v}`);
console.log(`\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 1e9)} GB; load average ${loadAtStart} → ${load()}; ${Math.round((performance.now() - started) / 1000)} s\n`);
console.log(tables.join('\n'));
