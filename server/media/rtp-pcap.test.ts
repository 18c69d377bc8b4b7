import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPcapUdp } from './pcap';
import { decodeRtpPcap, mixStreamsToWav, mixStreamsToWavInTurns, type RtpStream } from './rtp-pcap';
import { readWav } from './wav';

/**
 * The fixtures are real rtpengine recordings (`--recording-method=pcap --recording-format=raw`) of
 * calls through this project's Kamailio + rtpengine, captured with the services harness:
 * - pcmu-browser-to-phone.pcap: a browser (JsSIP) calls baresip, which answers G.711 µ-law and plays
 *   a 440 Hz sine at 8000/32768 full scale; the browser sends Chromium's fake microphone (a short
 *   beep every 500 ms). About 1.5 s.
 * - opus-browsers-segment1.pcap, …segment2.pcap: two browsers (Opus, PT 111, with RTCP muxed in),
 *   recorded 2 s, paused (= rtpengine `stop recording`) 1 s, recorded again 1.5 s.
 */
const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name));

/** Amplitude of one frequency in the signal (Goertzel). */
function amplitudeAt(x: Float32Array, rate: number, freq: number): number {
  const c = 2 * Math.cos((2 * Math.PI * freq) / rate);
  let s1 = 0;
  let s2 = 0;
  for (const v of x) {
    const s = v + c * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return (Math.sqrt(s1 * s1 + s2 * s2 - c * s1 * s2) / x.length) * 2;
}

/** RMS of consecutive 50 ms windows. */
function envelope(x: Float32Array, rate: number): number[] {
  const n = Math.round(rate / 20);
  const out: number[] = [];
  for (let i = 0; i + n <= x.length; i += n) {
    let e = 0;
    for (let j = i; j < i + n; j++) e += x[j]! ** 2;
    out.push(Math.sqrt(e / n));
  }
  return out;
}

/** Start times (s) of bursts of sound: windows above the threshold after a quiet one. */
function burstStarts(x: Float32Array, rate: number, threshold = 0.05): number[] {
  const env = envelope(x, rate);
  return env.flatMap((v, i) => (v > threshold && (i === 0 || env[i - 1]! <= threshold) ? [i * 0.05] : []));
}

const seconds = (s: RtpStream) => s.samples.length / s.sampleRate;

describe('decodeRtpPcap on real rtpengine recordings', () => {
  it('G.711 µ-law: one stream per sender, with its addresses, its true length and the phone’s 440 Hz tone', async () => {
    const streams = await decodeRtpPcap(fixture('pcmu-browser-to-phone.pcap'));
    expect(streams.map((s) => [s.codec, s.src, s.dst, s.sampleRate])).toEqual([
      ['pcmu', '127.0.0.1:29442', '127.0.0.1:44530', 8000],
      ['pcmu', '192.0.2.2:37480', '127.0.0.1:44543', 8000],
    ]);
    const [phone, browser] = streams as [RtpStream, RtpStream];
    expect(phone.ssrc).toBe(0xc7ce9c29);
    // 77 packets of 20 ms, timestamps spanning 12,160 samples: 1.52 s + the last packet's 20 ms.
    expect(seconds(phone)).toBeCloseTo(1.54, 2);
    expect(seconds(browser)).toBeCloseTo(1.52, 2);
    // baresip's sine: 8000/32768 = 0.244 at 440 Hz, next to nothing 100 Hz away.
    expect(amplitudeAt(phone.samples, 8000, 440)).toBeCloseTo(0.244, 2);
    expect(amplitudeAt(phone.samples, 8000, 540)).toBeLessThan(0.01);
    // Chromium's fake microphone beeps twice a second.
    const beeps = burstStarts(browser.samples, 8000);
    expect(beeps.length).toBe(3);
    expect(beeps[1]! - beeps[0]!).toBeCloseTo(0.5, 1);
    expect(browser.firstPacketMs - phone.firstPacketMs).toBeCloseTo(7.18, 1);
  });

  it('Opus: decoded at 48 kHz, RTCP (muxed on the same port) is not audio, beeps every 500 ms for 2 s', async () => {
    const streams = await decodeRtpPcap(fixture('opus-browsers-segment1.pcap'));
    expect(streams.map((s) => [s.codec, s.ssrc, s.src, s.sampleRate])).toEqual([
      ['opus', 0x572f159d, '192.0.2.2:52644', 48_000],
      ['opus', 0xd76d2ebf, '192.0.2.2:53670', 48_000],
    ]);
    for (const s of streams) {
      expect(seconds(s)).toBeGreaterThan(1.98);
      expect(seconds(s)).toBeLessThan(2.04);
      const beeps = burstStarts(s.samples, s.sampleRate);
      expect(beeps.length).toBe(4);
      for (let i = 1; i < beeps.length; i++) expect(beeps[i]! - beeps[i - 1]!).toBeCloseTo(0.5, 1);
      // Between beeps the fake microphone is silent: a wrongly decoded stream would be noise.
      const env = envelope(s.samples, s.sampleRate);
      expect(env.filter((v) => v < 0.01).length).toBeGreaterThan(env.length / 2);
    }
  });

  it('decodes Opus at a lower rate on request, with the same length', async () => {
    const [s] = await decodeRtpPcap(fixture('opus-browsers-segment1.pcap'), { opusSampleRate: 16_000 });
    expect(s!.sampleRate).toBe(16_000);
    expect(seconds(s!)).toBeGreaterThan(1.98);
    expect(burstStarts(s!.samples, 16_000).length).toBe(4);
  });

  it('a lost stretch is silence: the stream keeps its length', async () => {
    const pcap = fixture('opus-browsers-segment1.pcap');
    const whole = (await decodeRtpPcap(pcap))[0]!;
    // Drop the first stream's packets captured between 0.5 s and 1.0 s in.
    const cut = rewritePcap(pcap, (rec) => {
      const d = rec.udp;
      const rel = d.timeMs - whole.firstPacketMs;
      return !(d.src === whole.src && d.payload.readUInt32BE(8) === whole.ssrc && rel >= 500 && rel < 1000);
    });
    const lossy = (await decodeRtpPcap(cut))[0]!;
    expect(lossy.samples.length).toBe(whole.samples.length);
    const env = envelope(lossy.samples, lossy.sampleRate);
    // 50 ms windows 11–18 (0.55–0.95 s) lie inside the lost stretch; the beep at ~0.5 s is gone.
    expect(Math.max(...env.slice(11, 19))).toBe(0);
    expect(burstStarts(lossy.samples, lossy.sampleRate).length).toBe(3);
  });
});

describe('decodeRtpPcap on synthetic RTP', () => {
  it('skips telephone-event, reorders late packets, drops duplicates, and survives sequence and timestamp wrap-around', async () => {
    const packets: SyntheticPacket[] = [];
    // 10 packets of 20 ms of µ-law full-scale square wave, sequence and timestamp about to wrap.
    for (let i = 0; i < 10; i++) {
      packets.push({ timeMs: 1000 + i * 20, pt: 0, seq: (65_530 + i) % 65_536, ts: (0xffff_ff00 + i * 160) % 0x1_0000_0000, ssrc: 7, payload: Buffer.alloc(160, i % 2 ? 0x80 : 0x00) });
    }
    // DTMF (telephone-event, PT 101) in the same stream: not audio.
    packets.splice(4, 0, { timeMs: 1075, pt: 101, seq: 1, ts: 0, ssrc: 7, payload: Buffer.from([1, 0x0a, 0, 160]) });
    // A late and a duplicated packet.
    [packets[2], packets[3]] = [packets[3]!, packets[2]!];
    packets.push({ ...packets[6]! });
    const streams = await decodeRtpPcap(syntheticPcap(packets));
    expect(streams).toHaveLength(1);
    const s = streams[0]!;
    expect(s.codec).toBe('pcmu');
    expect(s.samples.length).toBe(1600);
    // µ-law 0x00 is the most negative value, 0x80 the most positive (32124/32768).
    expect(s.samples[0]).toBeCloseTo(-0.98, 2);
    expect(s.samples[160]).toBeCloseTo(0.98, 2);
    expect(s.samples[1599]).toBeCloseTo(0.98, 2);
  });

  it('G.711 A-law, and a gap in the timestamps becomes silence of that length', async () => {
    const packets: SyntheticPacket[] = [0, 1, 5].map((n) => ({ timeMs: n * 20, pt: 8, seq: n, ts: n * 160, ssrc: 9, payload: Buffer.alloc(160, 0xaa) }));
    const [s] = await decodeRtpPcap(syntheticPcap(packets));
    expect(s!.codec).toBe('pcma');
    expect(s!.samples.length).toBe(6 * 160);
    // A-law 0xAA: 0xAA ^ 0x55 = 0xFF, sign bit set, segment 7, mantissa 15: +32256.
    expect(s!.samples[0]).toBeCloseTo(32_256 / 32_768, 3);
    expect(Math.max(...s!.samples.subarray(320, 800).map(Math.abs))).toBe(0);
    expect(s!.samples[800]).toBeCloseTo(32_256 / 32_768, 3);
  });
});

describe('mixStreamsToWav', () => {
  it('mixes both sides into one mono 16-bit WAV, each placed by its capture time', async () => {
    const streams = await decodeRtpPcap(fixture('opus-browsers-segment1.pcap'));
    const { wav, durationSec } = mixStreamsToWav(streams);
    const info = readWav(wav);
    expect(info).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    expect(durationSec).toBeGreaterThan(2.0);
    expect(durationSec).toBeLessThan(2.06);
    expect(info.durationMs).toBe(Math.round(durationSec * 1000));
    const pcm = new Float32Array(info.dataBytes / 2).map((_, i) => wav.readInt16LE(info.dataOffset + i * 2) / 32768);
    // Both browsers' beeps, 8 in all: the two phones beep out of step with each other.
    expect(burstStarts(pcm, 16_000).length).toBe(8);
  });

  it('mixes only the streams it is given, at the rate asked for', async () => {
    const [phone] = await decodeRtpPcap(fixture('pcmu-browser-to-phone.pcap'));
    const { wav, durationSec } = mixStreamsToWav([phone!], { sampleRate: 8000 });
    expect(durationSec).toBeCloseTo(1.54, 2);
    const info = readWav(wav);
    const pcm = new Float32Array(info.dataBytes / 2).map((_, i) => wav.readInt16LE(info.dataOffset + i * 2) / 32768);
    expect(amplitudeAt(pcm, 8000, 440)).toBeCloseTo(0.244, 2);
  });

  it('a G.711 phone and an Opus browser in one file: 8 kHz is brought up to 16 kHz, the tone intact', async () => {
    const [phone] = await decodeRtpPcap(fixture('pcmu-browser-to-phone.pcap'));
    const [browser] = await decodeRtpPcap(fixture('opus-browsers-segment1.pcap'));
    // Pretend they were on one call: the browser starts 250 ms after the phone.
    const { wav, durationSec } = mixStreamsToWav([phone!, { ...browser!, firstPacketMs: phone!.firstPacketMs + 250 }]);
    expect(durationSec).toBeCloseTo(0.25 + browser!.samples.length / 48_000, 2);
    const info = readWav(wav);
    expect(info.sampleRate).toBe(16_000);
    const pcm = new Float32Array(info.dataBytes / 2).map((_, i) => wav.readInt16LE(info.dataOffset + i * 2) / 32768);
    // The first 250 ms are the phone alone: its 440 Hz sine at full strength, nothing else.
    const phoneOnly = pcm.subarray(0, 4000);
    expect(amplitudeAt(phoneOnly, 16_000, 440)).toBeCloseTo(0.244, 1);
    expect(amplitudeAt(phoneOnly, 16_000, 3560)).toBeLessThan(0.01);
  });

  it('nothing to mix is an empty WAV', () => {
    expect(mixStreamsToWav([])).toMatchObject({ durationSec: 0 });
  });
});

interface SyntheticPacket {
  timeMs: number;
  pt: number;
  seq: number;
  ts: number;
  ssrc: number;
  payload: Buffer;
}

/** A raw-IPv4 pcap (rtpengine's layout) of RTP packets from 10.0.0.1:4000 to 10.0.0.2:5000. */
function syntheticPcap(packets: readonly SyntheticPacket[]): Buffer {
  const head = Buffer.alloc(24);
  head.writeUInt32LE(0xa1b2c3d4, 0);
  head.writeUInt16LE(2, 4);
  head.writeUInt16LE(4, 6);
  head.writeUInt32LE(65535, 16);
  head.writeUInt32LE(101, 20);
  const records = packets.map((p) => {
    const rtp = Buffer.alloc(12);
    rtp[0] = 0x80;
    rtp[1] = p.pt;
    rtp.writeUInt16BE(p.seq, 2);
    rtp.writeUInt32BE(p.ts, 4);
    rtp.writeUInt32BE(p.ssrc, 8);
    const udpLen = 8 + rtp.length + p.payload.length;
    const ip = Buffer.alloc(28);
    ip[0] = 0x45;
    ip.writeUInt16BE(20 + udpLen, 2);
    ip[8] = 64;
    ip[9] = 17;
    ip.set([10, 0, 0, 1], 12);
    ip.set([10, 0, 0, 2], 16);
    ip.writeUInt16BE(4000, 20);
    ip.writeUInt16BE(5000, 22);
    ip.writeUInt16BE(udpLen, 24);
    const frame = Buffer.concat([ip, rtp, p.payload]);
    const rec = Buffer.alloc(16);
    rec.writeUInt32LE(Math.floor(p.timeMs / 1000), 0);
    rec.writeUInt32LE(Math.round((p.timeMs % 1000) * 1000), 4);
    rec.writeUInt32LE(frame.length, 8);
    rec.writeUInt32LE(frame.length, 12);
    return Buffer.concat([rec, frame]);
  });
  return Buffer.concat([head, ...records]);
}

/** The same pcap with only the records `keep` accepts (each record is one UDP datagram here). */
function rewritePcap(pcap: Buffer, keep: (rec: { udp: ReturnType<typeof readPcapUdp>[number] }) => boolean): Buffer {
  const udps = readPcapUdp(pcap);
  const parts = [pcap.subarray(0, 24)];
  let at = 24;
  let n = 0;
  while (at + 16 <= pcap.length) {
    const len = pcap.readUInt32LE(at + 8);
    const rec = pcap.subarray(at, at + 16 + len);
    if (keep({ udp: udps[n]! })) parts.push(rec);
    at += 16 + len;
    n++;
  }
  return Buffer.concat(parts);
}

describe('mixStreamsToWavInTurns', () => {
  it('gives the same WAV as mixStreamsToWav while letting other work run in between', async () => {
    const streams = await decodeRtpPcap(fixture('opus-browsers-segment1.pcap'));
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const inTurns = await mixStreamsToWavInTurns(streams, { sampleRate: 48_000 });
    clearInterval(ticker);
    const atOnce = mixStreamsToWav(streams, { sampleRate: 48_000 });
    expect(inTurns.durationSec).toBe(atOnce.durationSec);
    expect(inTurns.wav.equals(atOnce.wav)).toBe(true);
    expect(ticks).toBeGreaterThan(0);
  });
});
