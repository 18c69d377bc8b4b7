/**
 * Just enough of RIFF/WAVE for the media the API serves: read the format and length of a PCM file,
 * and join PCM files of the same format into one (a conversation from its speakers' lines).
 */
export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Where the PCM samples start and how many bytes they take. */
  dataOffset: number;
  dataBytes: number;
  durationMs: number;
}

export function readWav(buf: Buffer): WavInfo {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let offset = 12;
  let fmt: Pick<WavInfo, 'sampleRate' | 'channels' | 'bitsPerSample'> | null = null;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    let size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      const format = buf.readUInt16LE(body);
      if (format !== 1) throw new Error(`WAVE format ${format} is not PCM`);
      fmt = { channels: buf.readUInt16LE(body + 2), sampleRate: buf.readUInt32LE(body + 4), bitsPerSample: buf.readUInt16LE(body + 14) };
    } else if (id === 'data') {
      if (!fmt) throw new Error('WAVE data before its format');
      // A streamed file (size unknown when the header was written) says 0 or 0xFFFFFFFF: take what is there.
      if (size === 0 || body + size > buf.length) size = buf.length - body;
      const bytesPerSecond = fmt.sampleRate * fmt.channels * (fmt.bitsPerSample / 8);
      return { ...fmt, dataOffset: body, dataBytes: size, durationMs: Math.round((size / bytesPerSecond) * 1000) };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAVE file has no data');
}

export function wavHeader(info: Pick<WavInfo, 'sampleRate' | 'channels' | 'bitsPerSample'>, dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  const blockAlign = info.channels * (info.bitsPerSample / 8);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(info.channels, 22);
  h.writeUInt32LE(info.sampleRate, 24);
  h.writeUInt32LE(info.sampleRate * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(info.bitsPerSample, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** One file from several of the same format, with `gapMs` of silence between them. */
export function joinWavs(parts: readonly Buffer[], gapMs = 0): Buffer {
  if (!parts.length) throw new Error('nothing to join');
  const infos = parts.map(readWav);
  const first = infos[0]!;
  for (const i of infos) {
    if (i.sampleRate !== first.sampleRate || i.channels !== first.channels || i.bitsPerSample !== first.bitsPerSample) {
      throw new Error('cannot join WAVE files of different formats');
    }
  }
  const blockAlign = first.channels * (first.bitsPerSample / 8);
  const gap = Buffer.alloc(Math.round((first.sampleRate * gapMs) / 1000) * blockAlign);
  const chunks: Buffer[] = [];
  parts.forEach((p, n) => {
    if (n > 0 && gap.length) chunks.push(gap);
    const info = infos[n]!;
    chunks.push(p.subarray(info.dataOffset, info.dataOffset + info.dataBytes));
  });
  const data = Buffer.concat(chunks);
  return Buffer.concat([wavHeader(first, data.length), data]);
}

/** 16-bit mono PCM WAV of float samples (-1…1; louder is clipped rather than wrapped). */
export function pcm16Wav(samples: Float32Array, sampleRate: number): Buffer {
  const out = Buffer.alloc(44 + samples.length * 2);
  wavHeader({ sampleRate, channels: 1, bitsPerSample: 16 }, samples.length * 2).copy(out);
  // WAV is little-endian, as is every machine this runs on: write through a typed view (fast).
  const pcm = new Int16Array(out.buffer, out.byteOffset + 44, samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    pcm[i] = Math.round(s < 0 ? s * 0x8000 : s * 0x7fff);
  }
  return out;
}
