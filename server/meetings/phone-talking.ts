import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { RtpAddress } from './audio-bridge';

/**
 * Whether a phone is speaking, measured by the API on the phone's own voice as the AudioBridge mixes
 * it. Janus 1.1's AudioBridge has talking events (`audiolevel_event`), but it takes the level only
 * from the RFC 6464 audio-level header extension, which Janus's core parses for WebRTC legs alone:
 * a plain-RTP participant's packets reach the same code with the extension marked absent (-1), so
 * a phone never gets a talking event (nor a `talking` in `listparticipants`). Instead, each phone's
 * group is also RTP-forwarded as G.711 µ-law (8 kHz, 20 ms a packet) to one UDP socket of the API,
 * where each packet's level is taken from its samples, on the scale of RFC 6464 (0 is loudest, 127
 * silence, in -dBov), and decided as Janus decides it for WebRTC participants: the average level
 * of a run of packets against a threshold.
 */

/** Packets in one decision: 200 ms of audio (Janus's WebRTC default is 100, two seconds). */
export const WINDOW_PACKETS = 10;
/** A run averaging louder than -40 dBov is speech (a phone's G.711 voice is about -15 to -30). */
export const LOUD_LEVEL = 40;
/** Quiet runs in a row before "stopped talking": pauses between words do not flicker the tile. */
export const QUIET_WINDOWS = 2;
/** No packets for this long (the bridge stopped forwarding): not talking. */
export const SILENT_AFTER_MS = 600;

/** G.711 µ-law byte to a 16-bit linear sample (ITU-T G.711). */
const ULAW = new Int16Array(256);
for (let i = 0; i < 256; i++) {
  const u = ~i & 0xff;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84;
  ULAW[i] = u & 0x80 ? -magnitude : magnitude;
}

/** The level of one µ-law payload in -dBov, 0 (loudest) to 127 (silence), as RFC 6464 counts it. */
export function ulawLevel(payload: Uint8Array): number {
  if (payload.length === 0) return 127;
  let sum = 0;
  for (const b of payload) {
    const s = ULAW[b]!;
    sum += s * s;
  }
  const rms = Math.sqrt(sum / payload.length);
  if (rms < 1) return 127;
  return Math.min(127, Math.max(0, Math.round(-20 * Math.log10(rms / 32768))));
}

/** The payload of an RTP packet (after CSRCs and a header extension, padding removed), or null. */
export function rtpPayload(packet: Buffer): Buffer | null {
  if (packet.length < 12 || packet[0]! >> 6 !== 2) return null;
  let offset = 12 + (packet[0]! & 0x0f) * 4;
  if (packet[0]! & 0x10) {
    if (packet.length < offset + 4) return null;
    offset += 4 + packet.readUInt16BE(offset + 2) * 4;
  }
  let end = packet.length;
  if (packet[0]! & 0x20) end -= packet[end - 1]!;
  return offset <= end ? packet.subarray(offset, end) : null;
}

/** Speaking or not, from each packet's level; `changed` fires on each change. */
export class TalkDetector {
  talking = false;
  private sum = 0;
  private count = 0;
  private quiet = 0;

  constructor(private readonly changed: (talking: boolean) => void) {}

  push(level: number): void {
    this.sum += level;
    this.count++;
    if (this.count < WINDOW_PACKETS) return;
    const loud = this.sum / this.count < LOUD_LEVEL;
    this.sum = 0;
    this.count = 0;
    if (loud) {
      this.quiet = 0;
      this.set(true);
    } else if (++this.quiet >= QUIET_WINDOWS) this.set(false);
  }

  /** Nothing arrives any more. */
  reset(): void {
    this.sum = 0;
    this.count = 0;
    this.quiet = 0;
    this.set(false);
  }

  private set(talking: boolean): void {
    if (talking === this.talking) return;
    this.talking = talking;
    this.changed(talking);
  }
}

export interface TalkMeter {
  /** Where forwarders send their µ-law (loopback), once the socket is bound. */
  address(): Promise<RtpAddress>;
  /** Measures the stream forwarded with this SSRC (from nextSsrc) until stopped. */
  meter(ssrc: number, changed: (talking: boolean) => void): { talking(): boolean; stop(): void };
  /** An SSRC no other metered stream of this process has. */
  nextSsrc(): number;
  close(): void;
}

export function talkMeter(log: Pick<FastifyBaseLogger, 'warn'>): TalkMeter {
  const streams = new Map<number, { detector: TalkDetector; timer: NodeJS.Timeout | null }>();
  let socket: dgram.Socket | null = null;
  let bound: Promise<RtpAddress> | null = null;
  let ssrc = 0x5a000000 + Math.floor(Math.random() * 0x100000);

  const silence = (s: { detector: TalkDetector; timer: NodeJS.Timeout | null }) => {
    if (s.timer) clearTimeout(s.timer);
    s.timer = setTimeout(() => {
      s.timer = null;
      s.detector.reset();
    }, SILENT_AFTER_MS);
    s.timer.unref();
  };

  const address = () =>
    (bound ??= new Promise<RtpAddress>((resolve, reject) => {
      const s = dgram.createSocket('udp4');
      socket = s;
      s.once('error', reject);
      s.on('message', (packet) => {
        if (packet.length < 12) return;
        const stream = streams.get(packet.readUInt32BE(8));
        const payload = stream ? rtpPayload(packet) : null;
        if (!stream || !payload) return;
        stream.detector.push(ulawLevel(payload));
        silence(stream);
      });
      s.bind(0, '127.0.0.1', () => {
        s.off('error', reject);
        s.on('error', (err) => log.warn({ err }, 'phone talking meter socket error'));
        resolve({ ip: '127.0.0.1', port: (s.address() as AddressInfo).port });
      });
    }));

  return {
    address,
    nextSsrc: () => (ssrc = (ssrc + 1) >>> 0),
    meter(id, changed) {
      const stream = { detector: new TalkDetector(changed), timer: null as NodeJS.Timeout | null };
      streams.set(id, stream);
      return {
        talking: () => stream.detector.talking,
        stop() {
          if (stream.timer) clearTimeout(stream.timer);
          if (streams.get(id) === stream) streams.delete(id);
          stream.detector.reset();
        },
      };
    },
    close() {
      for (const s of streams.values()) if (s.timer) clearTimeout(s.timer);
      streams.clear();
      socket?.close();
      socket = null;
    },
  };
}
