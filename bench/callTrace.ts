/**
 * `UC_BENCH_TRACE=1 npx tsx bench/run.ts calls`: where each call's setup went, step by step, in both
 * pages on one clock (performance.timeOrigin + performance.now(), the machine's clock): the click,
 * getUserMedia, the peer connection, offer/answer, each ICE candidate, every SIP message sent or
 * received on the WebSocket, the callee's Accept, and long tasks. Printed per call and as medians
 * (ms after the click) over the measured calls.
 */
import { median, round1 } from './measure';

export interface TraceEvent {
  name: string;
  /** ms on the machine's clock. */
  t: number;
  /** Which page: filled in by the bench. */
  who?: string;
}

declare global {
  interface Window {
    __trace?: TraceEvent[];
  }
}

/** Page script (plain JavaScript: tsx would add helpers the page does not have). */
export const TRACE_PROBE = `(() => {
  const T = (window.__trace = []);
  const now = () => performance.timeOrigin + performance.now();
  const mark = (name, t) => T.push({ name, t: t === undefined ? now() : t });
  window.__traceMark = mark;
  addEventListener('pointerup', (e) => {
    const b = e.target && e.target.closest ? e.target.closest('button') : null;
    if (b) mark('click ' + b.textContent.trim(), performance.timeOrigin + e.timeStamp);
  }, true);
  const md = navigator.mediaDevices;
  const gum = md.getUserMedia.bind(md);
  md.getUserMedia = (c) => { mark('gum start'); return gum(c).then((s) => { mark('gum end'); return s; }); };
  const PC = window.RTCPeerConnection;
  const wrap = (name) => {
    const f = PC.prototype[name];
    PC.prototype[name] = function (...a) {
      mark(name + ' start');
      return f.apply(this, a).then((r) => { mark(name + ' end'); return r; });
    };
  };
  ['createOffer', 'createAnswer', 'setLocalDescription', 'setRemoteDescription'].forEach(wrap);
  window.RTCPeerConnection = class extends PC {
    constructor(...a) {
      mark('pc new');
      super(...a);
      mark('pc made');
      this.addEventListener('icecandidate', (e) => mark(e.candidate ? 'cand ' + (e.candidate.protocol || '?') + ' ' + e.candidate.address : 'cand end'));
      this.addEventListener('icegatheringstatechange', () => mark('gathering ' + this.iceGatheringState));
      this.addEventListener('connectionstatechange', () => mark('pc ' + this.connectionState));
    }
  };
  const first = (d) => String(d).split('\\r\\n')[0].replace(/ sip:.*| SIP\\/2.0$/, '');
  const cseq = (d) => (/^CSeq: *(\\d+ \\w+)/im.exec(String(d)) || [])[1] || '';
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => mark('recv ' + first(e.data) + ' (' + cseq(e.data) + ')'));
    }
  };
  const send = Native.prototype.send;
  Native.prototype.send = function (d) { mark('send ' + first(d) + ' (' + cseq(d) + ')'); return send.call(this, d); };
  try {
    new PerformanceObserver((l) => l.getEntries().forEach((e) => mark('longtask ' + Math.round(e.duration) + 'ms', performance.timeOrigin + e.startTime))).observe({ type: 'longtask' });
  } catch {}
})()`;

/** Both pages' events of one call, from the caller's click on, sorted. */
export function callTimeline(events: TraceEvent[]): TraceEvent[] {
  const click = events.find((e) => e.who === 'alice' && e.name === 'click Call');
  if (!click) return [];
  const hangup = events.find((e) => e.name === 'click Hang up')?.t ?? Infinity;
  return events.filter((e) => e.t >= click.t - 0.01 && e.t < hangup && !/REGISTER|OPTIONS/.test(e.name)).sort((a, b) => a.t - b.t);
}

export function printTimeline(label: string, tl: TraceEvent[]): void {
  const t0 = tl[0]?.t ?? 0;
  console.log(`--- ${label}`);
  for (const e of tl) console.log(`${round1(e.t - t0).toFixed(1).padStart(7)}  ${e.who!.padEnd(5)}  ${e.name}`);
}

/** Median time after the click of each step (its n-th occurrence in a call is a step of its own). */
export function printMedians(timelines: TraceEvent[][]): void {
  const at = new Map<string, number[]>();
  const order: string[] = [];
  for (const tl of timelines) {
    const t0 = tl[0]!.t;
    const seen = new Map<string, number>();
    for (const e of tl) {
      const name = e.name
        .replace(/ (\d+(\.\d+){3}|\[[0-9a-f:]+\]|[0-9a-f-]+\.local)$/, '')
        .replace(/longtask \d+ms/, 'longtask')
        .replace(/\(\d+ (\w+)\)/, '($1)');
      const base = `${e.who} ${name}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const key = `${base}${n > 1 ? ` #${n}` : ''}`;
      if (!at.has(key)) {
        at.set(key, []);
        order.push(key);
      }
      at.get(key)!.push(e.t - t0);
    }
  }
  const rows = order.map((k) => [k, median(at.get(k)!), at.get(k)!.length] as const).sort((a, b) => a[1] - b[1]);
  console.log('--- median ms after the click (n: calls that had the step)');
  for (const [k, m, n] of rows) console.log(`${round1(m).toFixed(1).padStart(7)}  ${k}  (n=${n})`);
}
