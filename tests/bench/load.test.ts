import { describe, expect, it } from 'vitest';
import { cpuPercent, parseProcStat, parseUdpDrops, tcpPortsHeld } from '../../bench/load/procStat';
import { highestPassingRate, ramp, stepPassed, type StepResult } from '../../bench/load/ramp';
import { unanchoredCalls } from '../../bench/load/sip';
import { parseSippStats, summariseSippErrors } from '../../bench/load/sipp';

const step = (rate: number, attempted: number, failed: number, achievedRate = rate): StepResult => ({ rate, attempted, failed, achievedRate });

describe('the load ramp', () => {
  it('passes a step under 1 % failed at (nearly) the asked rate only', () => {
    expect(stepPassed(step(100, 1000, 9))).toBe(true);
    expect(stepPassed(step(100, 1000, 10))).toBe(false);
    expect(stepPassed(step(100, 1000, 0, 85))).toBe(false);
    expect(stepPassed(step(100, 0, 0))).toBe(false);
  });

  it('takes the highest rate before the first failed step', () => {
    expect(highestPassingRate([step(10, 100, 0), step(20, 200, 1), step(40, 400, 40), step(80, 800, 0)])).toBe(20);
    expect(highestPassingRate([step(10, 100, 5)])).toBe(0);
    expect(highestPassingRate([])).toBe(0);
  });

  it('runs the rates in ascending order and stops at the first failed step', async () => {
    const asked: number[] = [];
    const steps = await ramp([40, 10, 20, 80], async (rate) => {
      asked.push(rate);
      return step(rate, rate * 10, rate >= 40 ? rate : 0);
    });
    expect(asked).toEqual([10, 20, 40]);
    expect(highestPassingRate(steps)).toBe(20);
  });
});

describe('/proc readings', () => {
  it('reads pid, group, CPU ticks and RSS from a stat line whose name holds spaces and parentheses', () => {
    const line = '4242 (kamailio (udp) 1) S 1 4200 4200 0 -1 4194560 1234 0 0 0 150 75 0 0 20 0 1 0 99999 123456789 2500 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0';
    expect(parseProcStat(line)).toEqual({ pid: 4242, comm: 'kamailio (udp) 1', ppid: 1, pgrp: 4200, cpuTicks: 225, rssPages: 2500 });
    expect(() => parseProcStat('garbage')).toThrow();
  });

  it('turns two readings into percent of one core', () => {
    expect(cpuPercent({ cpuTicks: 100, at: 0 }, { cpuTicks: 250, at: 1000 }, 100)).toBe(150);
    expect(cpuPercent({ cpuTicks: 100, at: 0 }, { cpuTicks: 100, at: 0 }, 100)).toBe(0);
  });

  it('sums the drops of the UDP sockets bound to one port (/proc/net/udp)', () => {
    const udp = [
      '   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops',
      ' 1234: 0100007F:9C7E 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 100 2 0000000000000000 1238',
      ' 1235: 0100007F:9C7E 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 101 2 0000000000000000 2',
      ' 1236: 0100007F:9E98 00000000:0000 07 00000000:00033E00 00:00000000 00000000     0        0 102 2 0000000000000000 7856',
    ].join('\n');
    expect(parseUdpDrops(udp, 40062)).toBe(1240);
    expect(parseUdpDrops(udp, 40600)).toBe(7856);
    expect(parseUdpDrops(udp, 40500)).toBe(0);
  });
});

describe('TCP ports held', () => {
  it('names the ports a socket holds, TIME_WAIT left out', () => {
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:A106 0100007F:9CD0 01 00000000:00000000 00:00000000 00000000     0        0 1',
      '   1: 0100007F:A144 0100007F:9CD0 06 00000000:00000000 00:00000000 00000000     0        0 0',
      '   2: 0100007F:A1A0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2',
    ].join('\n');
    expect(tcpPortsHeld(tcp, [41222, 41284, 41376, 41000])).toEqual([41222, 41376]);
  });
});

describe('sipp output', () => {
  it('reads the cumulative counts from the last line of its statistics file', () => {
    const csv = [
      'StartTime;LastResetTime;CurrentTime;TotalCallCreated;SuccessfulCall(P);SuccessfulCall(C);FailedCall(P);FailedCall(C);',
      '2026-11-28 02:00:00;2026-11-28 02:00:00;2026-11-28 02:00:01;100;99;99;1;1;',
      '2026-11-28 02:00:00;2026-11-28 02:00:01;2026-11-28 02:00:02;200;98;197;2;3;',
      '',
    ].join('\n');
    expect(parseSippStats(csv)).toEqual({ created: 200, successful: 197, failed: 3 });
    expect(() => parseSippStats('StartTime;\n')).toThrow();
  });

  it('counts why calls failed: unexpected replies by status line, and timeouts', () => {
    const log = `x: Aborting call on unexpected message for Call-Id '1-1@h': while expecting '200' (index 3), received 'SIP/2.0 480 Temporarily Unavailable
Via: …'
y: Aborting call on unexpected message for Call-Id '2-1@h': while expecting '200' (index 3), received 'SIP/2.0 480 Temporarily Unavailable
w: Dead call 3-1@h (successful), received 'SIP/2.0 200 OK
z: Call-Id '7-1@h', receive timeout on message uc load call:13 without label to jump to (ontimeout attribute): aborting call`;
    expect(summariseSippErrors(log)).toEqual({ '480 Temporarily Unavailable': 2, timeout: 1 });
  });
});

describe('calls rtpengine could not anchor', () => {
  it('counts the calls its log says got no media ports', () => {
    const log = `[1.1] ERR: [270-4080@127.0.0.1]: [core] Failed to get 2 consecutive ports on interface 127.0.0.1 for media relay
[1.2] ERR: [270-4080@127.0.0.1]: [core] Error allocating media ports
[1.3] INFO: [271-4080@127.0.0.1]: [core] Replying to 'offer'
[1.4] ERR: [272-4080@127.0.0.1]: [core] Error allocating media ports
`;
    expect(unanchoredCalls(log)).toBe(2);
    expect(unanchoredCalls('')).toBe(0);
  });
});
