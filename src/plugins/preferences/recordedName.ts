/**
 * A recording of one's name, in whatever format the browser can decode (a phone's m4a, an mp3, a
 * WAV), as the server takes it: 16-bit PCM WAV, mono, 8 kHz (telephone quality, what callers hear).
 */
const RATE = 8000;

export async function toNameWav(file: Blob): Promise<Blob> {
  const decoder = new OfflineAudioContext(1, 1, RATE);
  const decoded = await decoder.decodeAudioData(await file.arrayBuffer());
  // Rendering through an offline context at 8 kHz mixes the channels down and resamples.
  const render = new OfflineAudioContext(1, Math.max(1, Math.ceil(decoded.duration * RATE)), RATE);
  const source = render.createBufferSource();
  source.buffer = decoded;
  source.connect(render.destination);
  source.start();
  const samples = (await render.startRendering()).getChannelData(0);
  const out = new DataView(new ArrayBuffer(44 + samples.length * 2));
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => out.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  out.setUint32(4, 36 + samples.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  out.setUint32(16, 16, true);
  out.setUint16(20, 1, true);
  out.setUint16(22, 1, true);
  out.setUint32(24, RATE, true);
  out.setUint32(28, RATE * 2, true);
  out.setUint16(32, 2, true);
  out.setUint16(34, 16, true);
  ascii(36, 'data');
  out.setUint32(40, samples.length * 2, true);
  samples.forEach((v, i) => out.setInt16(44 + i * 2, Math.round(Math.max(-1, Math.min(1, v)) * 0x7fff), true));
  return new Blob([out.buffer], { type: 'audio/wav' });
}
