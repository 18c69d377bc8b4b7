import { OpusDecoder } from 'opus-decoder';
import { readPcapUdp, type UdpDatagram } from './pcap';
import { pcm16Wav, wavHeader } from './wav';

/**
 * rtpengine's recordings (`--recording-method=pcap --recording-format=raw`) as audio: the pcap holds
 * the decrypted RTP each peer sent, one stream per SSRC. Each stream is decoded (Opus with the WASM
 * libopus of `opus-decoder`, G.711 in plain JS) and laid out by RTP timestamp, so lost packets and
 * gaps become silence and a stream lasts as long as it really did.
 */
export type RtpCodec = 'opus' | 'pcmu' | 'pcma';

export interface RtpStream {
  ssrc: number;
  codec: RtpCodec;
  /** `address:port` the packets came from and went to. */
  src: string;
  dst: string;
  /** Capture time of the stream's first packet, milliseconds since the epoch. */
  firstPacketMs: number;
  /** Mono audio, -1…1, from the first packet to the last (silence where packets were missing). */
  samples: Float32Array;
  sampleRate: number;
}

export interface DecodeOptions {
  /**
   * Payload types and their codec. Defaults: 0 PCMU, 8 PCMA (static), 111 Opus (what browsers
   * offer). Anything else, telephone-event (DTMF) and comfort noise included, is skipped.
   */
  payloadTypes?: Readonly<Record<number, RtpCodec>>;
  /** Rate Opus is decoded at (its RTP clock stays 48 kHz); lower rates keep long calls small. */
  opusSampleRate?: 8000 | 12000 | 16000 | 24000 | 48000;
}

export const DEFAULT_PAYLOAD_TYPES: Readonly<Record<number, RtpCodec>> = { 0: 'pcmu', 8: 'pcma', 111: 'opus' };

const CLOCK_RATE: Record<RtpCodec, number> = { opus: 48_000, pcmu: 8000, pcma: 8000 };

/**
 * How far a packet's RTP timestamp may disagree with its capture time before the timestamp is
 * no longer trusted (a sender that restarted its clock, e.g. after a re-INVITE): beyond this the
 * packet is placed by capture time instead.
 */
const MAX_CLOCK_DRIFT_MS = 1000;

/** Longest silence a stream may contain: a corrupt timestamp must not allocate hours of zeros. */
const MAX_GAP_SECONDS = 600;

/**
 * Frames decoded between two turns of the event loop. Decoding is synchronous WASM (about 0.2 ms a
 * 20 ms Opus frame here): a long call converted in one go would stall the API server's requests,
 * Kamailio's routing questions included, for seconds.
 */
const FRAMES_PER_TURN = 50;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface RtpPacket {
  timeMs: number;
  seq: number;
  timestamp: number;
  payload: Buffer;
}

interface RawStream {
  ssrc: number;
  codec: RtpCodec;
  src: string;
  dst: string;
  packets: RtpPacket[];
}

/** RTP header fields, or null for RTCP, STUN, DTLS and anything else that is not RTP version 2. */
function parseRtp(d: UdpDatagram): { pt: number; seq: number; timestamp: number; ssrc: number; payload: Buffer } | null {
  const b = d.payload;
  if (b.length < 12 || b[0]! >> 6 !== 2) return null;
  const pt = b[1]! & 0x7f;
  // RTCP multiplexed on the RTP port (rtcp-mux): packet types 192–223 read as PT 64–95 (RFC 5761).
  if (pt >= 64 && pt <= 95) return null;
  const csrcCount = b[0]! & 0x0f;
  let at = 12 + csrcCount * 4;
  if (b[0]! & 0x10) {
    if (at + 4 > b.length) return null;
    at += 4 + b.readUInt16BE(at + 2) * 4;
  }
  let end = b.length;
  if (b[0]! & 0x20) end -= b[b.length - 1]!;
  if (at > end) return null;
  return { pt, seq: b.readUInt16BE(2), timestamp: b.readUInt32BE(4), ssrc: b.readUInt32BE(8), payload: b.subarray(at, end) };
}

function splitStreams(datagrams: readonly UdpDatagram[], payloadTypes: Readonly<Record<number, RtpCodec>>): RawStream[] {
  const streams = new Map<string, RawStream>();
  for (const d of datagrams) {
    const rtp = parseRtp(d);
    if (!rtp) continue;
    const codec = payloadTypes[rtp.pt];
    if (!codec) continue;
    // The same SSRC from two addresses would be two senders (or a relayed copy): keep them apart.
    const key = `${rtp.ssrc}|${d.src}|${d.dst}|${codec}`;
    let s = streams.get(key);
    if (!s) {
      s = { ssrc: rtp.ssrc, codec, src: d.src, dst: d.dst, packets: [] };
      streams.set(key, s);
    }
    s.packets.push({ timeMs: d.timeMs, seq: rtp.seq, timestamp: rtp.timestamp, payload: rtp.payload });
  }
  return [...streams.values()];
}

/** Unwraps 16-bit sequence numbers and 32-bit timestamps, drops duplicates, sorts by sequence. */
function orderPackets(packets: readonly RtpPacket[]): Array<RtpPacket & { ext: number; extTs: number }> {
  // The highest sequence seen so far (and its timestamp) is the reference each next packet is read against.
  let ref: { seq: number; ts: number } | null = null;
  const out: Array<RtpPacket & { ext: number; extTs: number }> = [];
  for (const p of packets) {
    let ext = p.seq;
    let extTs = p.timestamp;
    if (ref) {
      let ds = (p.seq - ref.seq) % 0x10000;
      if (ds < 0) ds += 0x10000;
      if (ds >= 0x8000) ds -= 0x10000;
      let dt = (p.timestamp - ref.ts) % 0x100000000;
      if (dt < 0) dt += 0x100000000;
      if (dt >= 0x80000000) dt -= 0x100000000;
      ext = ref.seq + ds;
      extTs = ref.ts + dt;
    }
    if (!ref || ext > ref.seq) ref = { seq: ext, ts: extTs };
    out.push({ ...p, ext, extTs });
  }
  out.sort((a, b) => a.ext - b.ext);
  return out.filter((p, i) => i === 0 || p.ext !== out[i - 1]!.ext);
}

function ulawToFloat(u: number): number {
  const x = ~u & 0xff;
  const t = (((x & 0x0f) << 3) + 0x84) << ((x & 0x70) >> 4);
  return (x & 0x80 ? 0x84 - t : t - 0x84) / 32768;
}

function alawToFloat(a: number): number {
  const x = a ^ 0x55;
  const seg = (x & 0x70) >> 4;
  let t = (x & 0x0f) << 4;
  t = seg === 0 ? t + 8 : seg === 1 ? t + 0x108 : (t + 0x108) << (seg - 1);
  return (x & 0x80 ? t : -t) / 32768;
}

const ULAW = Float32Array.from({ length: 256 }, (_, i) => ulawToFloat(i));
const ALAW = Float32Array.from({ length: 256 }, (_, i) => alawToFloat(i));

interface FrameDecoder {
  sampleRate: number;
  decode(payload: Buffer): Float32Array;
  free(): void;
}

async function frameDecoder(codec: RtpCodec, opusSampleRate: DecodeOptions['opusSampleRate']): Promise<FrameDecoder> {
  if (codec === 'opus') {
    const sampleRate = opusSampleRate ?? 48_000;
    // Mono output whatever the sender encoded: libopus downmixes a stereo stream itself.
    const opus = new OpusDecoder({ sampleRate, channels: 1, streamCount: 1, coupledStreamCount: 0, channelMappingTable: [0] });
    await opus.ready;
    return {
      sampleRate,
      decode: (payload) => {
        const out = opus.decodeFrame(new Uint8Array(payload.buffer, payload.byteOffset, payload.length));
        return out.channelData[0] ?? new Float32Array(0);
      },
      free: () => opus.free(),
    };
  }
  const table = codec === 'pcmu' ? ULAW : ALAW;
  return {
    sampleRate: 8000,
    decode: (payload) => {
      const out = new Float32Array(payload.length);
      for (let i = 0; i < payload.length; i++) out[i] = table[payload[i]!]!;
      return out;
    },
    free: () => undefined,
  };
}

async function decodeStream(raw: RawStream, opts: DecodeOptions): Promise<RtpStream | null> {
  const packets = orderPackets(raw.packets);
  if (!packets.length) return null;
  const clock = CLOCK_RATE[raw.codec];
  const decoder = await frameDecoder(raw.codec, opts.opusSampleRate);
  try {
    const rate = decoder.sampleRate;
    // A loop, not Math.min(...): an hour of packets is more arguments than a call may take.
    const firstPacketMs = raw.packets.reduce((min, p) => Math.min(min, p.timeMs), Infinity);
    const first = packets[0]!;
    const placed: Array<{ at: number; pcm: Float32Array }> = [];
    // Timestamp origin: the first packet's, moved whenever the sender's clock jumps.
    let base = { ts: first.extTs, ms: first.timeMs };
    let length = 0;
    let decoded = 0;
    for (const p of packets) {
      if (++decoded % FRAMES_PER_TURN === 0) await nextTurn();
      let sinceMs = ((p.extTs - base.ts) / clock) * 1000 + (base.ms - firstPacketMs);
      const captured = p.timeMs - firstPacketMs;
      if (Math.abs(sinceMs - captured) > MAX_CLOCK_DRIFT_MS) {
        base = { ts: p.extTs, ms: p.timeMs };
        sinceMs = captured;
      }
      if (sinceMs < 0 || sinceMs > length / rate * 1000 + MAX_GAP_SECONDS * 1000) continue;
      let pcm: Float32Array;
      try {
        pcm = decoder.decode(p.payload);
      } catch {
        continue; // A corrupt frame is a lost one: silence.
      }
      const at = Math.round((sinceMs / 1000) * rate);
      placed.push({ at, pcm });
      length = Math.max(length, at + pcm.length);
    }
    if (!placed.length) return null;
    const samples = new Float32Array(length);
    for (const { at, pcm } of placed) samples.set(pcm, at);
    return { ssrc: raw.ssrc, codec: raw.codec, src: raw.src, dst: raw.dst, firstPacketMs, samples, sampleRate: rate };
  } finally {
    decoder.free();
  }
}

/** The audio streams of an rtpengine pcap, in order of their first packet. */
export async function decodeRtpPcap(pcap: Buffer, opts: DecodeOptions = {}): Promise<RtpStream[]> {
  const raw = splitStreams(readPcapUdp(pcap), opts.payloadTypes ?? DEFAULT_PAYLOAD_TYPES);
  const streams: RtpStream[] = [];
  for (const r of raw) {
    const s = await decodeStream(r, opts);
    if (s) streams.push(s);
  }
  return streams.sort((a, b) => a.firstPacketMs - b.firstPacketMs);
}

/** Linear-interpolation resampling, after a moving-average low-pass when the rate goes down. */
export function resample(input: Float32Array, from: number, to: number): Float32Array {
  if (from === to || !input.length) return input;
  let src = input;
  if (to < from) {
    const width = Math.max(1, Math.round(from / to));
    if (width > 1) {
      src = new Float32Array(input.length);
      let sum = 0;
      for (let i = 0; i < input.length; i++) {
        sum += input[i]!;
        if (i >= width) sum -= input[i - width]!;
        src[i] = sum / Math.min(i + 1, width);
      }
    }
  }
  const outLength = Math.floor((input.length * to) / from);
  const out = new Float32Array(outLength);
  const step = from / to;
  for (let i = 0; i < outLength; i++) {
    const pos = i * step;
    const j = Math.floor(pos);
    const frac = pos - j;
    const a = src[j]!;
    const b = src[Math.min(j + 1, src.length - 1)]!;
    out[i] = a + (b - a) * frac;
  }
  return out;
}

/** Samples handled between two turns of the event loop when mixing and writing a long call. */
const SAMPLES_PER_TURN = 1 << 18;

/** Runs a step generator to its end at once. */
function runNow<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs a step generator, letting the event loop turn between steps. */
async function runInTurns<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}

function* mixSteps(streams: readonly RtpStream[], sampleRate: number): Generator<void, Float32Array> {
  if (!streams.length) return new Float32Array(0);
  const start = Math.min(...streams.map((s) => s.firstPacketMs));
  const parts: Array<{ at: number; pcm: Float32Array }> = [];
  for (const s of streams) {
    parts.push({ at: Math.round(((s.firstPacketMs - start) / 1000) * sampleRate), pcm: resample(s.samples, s.sampleRate, sampleRate) });
    yield;
  }
  const mix = new Float32Array(Math.max(...parts.map((p) => p.at + p.pcm.length)));
  for (const { at, pcm } of parts) {
    for (let from = 0; from < pcm.length; from += SAMPLES_PER_TURN) {
      const to = Math.min(pcm.length, from + SAMPLES_PER_TURN);
      for (let i = from; i < to; i++) mix[at + i] = mix[at + i]! + pcm[i]!;
      yield;
    }
  }
  return mix;
}

function* wavSteps(mix: Float32Array, sampleRate: number): Generator<void, Buffer> {
  const parts: Buffer[] = [];
  for (let from = 0; from < mix.length; from += SAMPLES_PER_TURN) {
    // Each chunk as a headerless WAV body: pcm16Wav's conversion, minus its 44-byte header.
    parts.push(pcm16Wav(mix.subarray(from, from + SAMPLES_PER_TURN), sampleRate).subarray(44));
    yield;
  }
  const data = Buffer.concat(parts);
  return Buffer.concat([wavHeader({ sampleRate, channels: 1, bitsPerSample: 16 }, data.length), data]);
}

/** The streams summed into one mono track, each placed by the capture time of its first packet. */
export function mixStreams(streams: readonly RtpStream[], sampleRate: number): Float32Array {
  return runNow(mixSteps(streams, sampleRate));
}

/** Mixes the chosen streams (default: all) into one mono WAV, aligned by capture time. */
export function mixStreamsToWav(streams: RtpStream[], opts: { sampleRate?: number } = {}): { wav: Buffer; durationSec: number } {
  const sampleRate = opts.sampleRate ?? 16_000;
  const mix = mixStreams(streams, sampleRate);
  return { wav: runNow(wavSteps(mix, sampleRate)), durationSec: mix.length / sampleRate };
}

/** mixStreamsToWav for long calls in a busy server: the same result, in slices between other work. */
export async function mixStreamsToWavInTurns(streams: RtpStream[], opts: { sampleRate?: number } = {}): Promise<{ wav: Buffer; durationSec: number }> {
  const sampleRate = opts.sampleRate ?? 16_000;
  const mix = await runInTurns(mixSteps(streams, sampleRate));
  return { wav: await runInTurns(wavSteps(mix, sampleRate)), durationSec: mix.length / sampleRate };
}
