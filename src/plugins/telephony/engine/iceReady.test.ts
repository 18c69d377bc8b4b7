import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ICE_SETTLE_MS, readyOnUdpCandidates, type IceCandidateEvent } from './iceReady';

function session() {
  let listener: ((e: IceCandidateEvent) => void) | undefined;
  const ready = vi.fn();
  readyOnUdpCandidates({ on: (_event, l) => (listener = l) });
  const emit = (candidate: string, protocol?: RTCIceProtocol) => listener!({ candidate: { candidate, protocol }, ready });
  return { emit, ready };
}

const udp = (ip: string) => `candidate:1 1 udp 2122260223 ${ip} 42562 typ host generation 0`;
const tcp = (ip: string) => `candidate:2 1 tcp 1518280447 ${ip} 9 typ host tcptype active generation 0`;

describe('readyOnUdpCandidates', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('goes on shortly after the last UDP candidate, with every interface in', () => {
    const s = session();
    s.emit(udp('192.0.2.2'), 'udp');
    vi.advanceTimersByTime(ICE_SETTLE_MS - 1);
    s.emit(udp('fd00::2'), 'udp');
    vi.advanceTimersByTime(ICE_SETTLE_MS - 1);
    expect(s.ready).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(s.ready).toHaveBeenCalledTimes(1);
  });

  it('goes on 2 ms after the last UDP candidate: the candidates of every interface come within that (measured 0.1–0.5 ms apart)', () => {
    const s = session();
    s.emit(udp('192.0.2.2'), 'udp');
    s.emit(udp('fd00::2'), 'udp');
    vi.advanceTimersByTime(1);
    expect(s.ready).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(s.ready).toHaveBeenCalledTimes(1);
  });

  it('does not wait for TCP candidates, and they alone never make it go on', () => {
    const s = session();
    s.emit(tcp('192.0.2.2'), 'tcp');
    vi.advanceTimersByTime(1000);
    expect(s.ready).not.toHaveBeenCalled();
    s.emit(udp('192.0.2.2'));
    vi.advanceTimersByTime(ICE_SETTLE_MS);
    expect(s.ready).toHaveBeenCalledTimes(1);
  });

  it('reads the protocol from the candidate line when the browser does not say', () => {
    const s = session();
    s.emit(tcp('192.0.2.2'));
    vi.advanceTimersByTime(ICE_SETTLE_MS);
    expect(s.ready).not.toHaveBeenCalled();
    s.emit(udp('192.0.2.2'));
    vi.advanceTimersByTime(ICE_SETTLE_MS);
    expect(s.ready).toHaveBeenCalledTimes(1);
  });
});
