/**
 * CPU and memory of a server from /proc: a server is its leader process, its process group
 * (Kamailio's workers: the service manager starts each server detached, as the leader of its own
 * group) and its direct children (PostgreSQL's backends each call setsid()).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  pgrp: number;
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
  rssPages: number;
}

/**
 * One line of /proc/<pid>/stat. The command name is in parentheses and may itself hold spaces and
 * parentheses, so the fields are counted from the last ')'.
 */
export function parseProcStat(line: string): ProcStat {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  // After the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime … rss (field 24).
  const f = line.slice(close + 2).trim().split(/\s+/);
  if (f.length < 22) throw new Error(`short /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  return {
    pid: Number(line.slice(0, open).trim()),
    comm: line.slice(open + 1, close),
    ppid: Number(f[1]),
    pgrp: Number(f[2]),
    cpuTicks: Number(f[11]) + Number(f[12]),
    rssPages: Number(f[21]),
  };
}

/** CPU use in percent of one core between two readings of the same group. */
export function cpuPercent(before: { cpuTicks: number; at: number }, after: { cpuTicks: number; at: number }, ticksPerSecond: number): number {
  const seconds = (after.at - before.at) / 1000;
  return seconds > 0 ? ((after.cpuTicks - before.cpuTicks) / ticksPerSecond / seconds) * 100 : 0;
}

let ticks: number | undefined;
export const ticksPerSecond = () => (ticks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);
let pageBytes: number | undefined;
const pageSize = () => (pageBytes ??= Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096);

/** The summed CPU ticks and RSS of a server's live processes (`leader`, its group, its children; they may come and go). */
export function groupUsage(leader: number): { cpuTicks: number; rssBytes: number; processes: number; at: number } {
  let cpuTicks = 0;
  let rssPages = 0;
  let processes = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let s: ProcStat;
    try {
      s = parseProcStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
    } catch {
      continue; // exited meanwhile
    }
    if (s.pid !== leader && s.pgrp !== leader && s.ppid !== leader) continue;
    cpuTicks += s.cpuTicks;
    rssPages += s.rssPages;
    processes++;
  }
  return { cpuTicks, rssBytes: rssPages * pageSize(), processes, at: performance.now() };
}

export interface GroupSample {
  /** Percent of one core over the window (200 = both cores of this machine). */
  cpu: number;
  rssMb: number;
}

/** Starts measuring each named process group; `stop()` gives their CPU over the window and RSS at its end. */
export function measureGroups(groups: Record<string, number>): { stop(): Record<string, GroupSample> } {
  const start = Object.fromEntries(Object.entries(groups).map(([name, pgrp]) => [name, groupUsage(pgrp)]));
  return {
    stop() {
      return Object.fromEntries(
        Object.entries(groups).map(([name, pgrp]) => {
          const end = groupUsage(pgrp);
          return [name, { cpu: Math.round(cpuPercent(start[name]!, end, ticksPerSecond())), rssMb: Math.round(end.rssBytes / 1e6) }];
        }),
      );
    },
  };
}

/**
 * Datagrams the kernel dropped on the UDP sockets bound to `port` (/proc/net/udp, last column): a
 * SIP server on UDP whose receive buffer fills because it is not scheduled or not fast enough loses
 * requests there (the client retransmits; too late, the transaction times out).
 */
export function parseUdpDrops(procNetUdp: string, port: number): number {
  let drops = 0;
  for (const line of procNetUdp.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 13) continue;
    if (parseInt(f[1]!.split(':')[1]!, 16) === port) drops += Number(f[f.length - 1]);
  }
  return drops;
}

export const udpDrops = (port: number) => parseUdpDrops(readFileSync('/proc/net/udp', 'utf8'), port);

/**
 * Local ports of `ports` that some TCP socket holds other than in TIME_WAIT (/proc/net/tcp): the
 * benches' ports lie in the kernel's ephemeral range, so an outgoing connection (this process's own,
 * to the API of the step before) may hold one as its source port, and a server cannot listen there.
 */
export function tcpPortsHeld(procNetTcp: string, ports: readonly number[]): number[] {
  const held = new Set<number>();
  for (const line of procNetTcp.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4) continue;
    const port = parseInt(f[1]!.split(':')[1]!, 16);
    if (ports.includes(port) && f[3] !== '06') held.add(port);
  }
  return [...held];
}

/** Waits (up to `timeoutMs`) until no socket holds any of `ports`. */
export async function waitTcpPortsFree(ports: readonly number[], timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const held = tcpPortsHeld(readFileSync('/proc/net/tcp', 'utf8'), ports);
    if (held.length === 0) return;
    if (Date.now() > deadline) throw new Error(`TCP ports ${held.join(', ')} still held by other connections`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
