/**
 * The little of SDP the dial-in reads and writes: one audio stream of G.711 over plain RTP (what
 * rtpengine offers a UDP phone's far end), never more.
 */
import type { RtpAddress } from './audio-bridge';

export type G711 = 'pcmu' | 'pcma';

export interface AudioOffer {
  remote: RtpAddress;
  codec: G711;
  payloadType: number;
}

/** The offer's audio address and its first G.711 payload type; null when it has none. */
export function readAudioOffer(sdp: string): AudioOffer | null {
  const lines = sdp.split(/\r?\n/);
  let ip: string | null = null;
  let port: number | null = null;
  let formats: string[] = [];
  const rtpmap = new Map<string, string>();
  let inAudio = false;
  for (const line of lines) {
    if (line.startsWith('m=')) {
      inAudio = line.startsWith('m=audio ') && port === null;
      if (inAudio) {
        const [, p, , ...fmts] = line.slice(2).split(' ');
        port = Number(p);
        formats = fmts;
      }
    } else if (line.startsWith('c=IN IP4 ') && (ip === null || inAudio)) {
      ip = line.slice('c=IN IP4 '.length).trim().split('/')[0]!;
    } else if (inAudio && line.startsWith('a=rtpmap:')) {
      const [pt, enc] = line.slice('a=rtpmap:'.length).split(' ');
      if (pt && enc) rtpmap.set(pt, enc.split('/')[0]!.toLowerCase());
    }
  }
  if (!ip || !port) return null;
  for (const f of formats) {
    const name = rtpmap.get(f) ?? (f === '0' ? 'pcmu' : f === '8' ? 'pcma' : '');
    if (name === 'pcmu' || name === 'pcma') return { remote: { ip, port }, codec: name, payloadType: Number(f) };
  }
  return null;
}

/** The answer (or our re-offer after the bridge moved): the bridge's RTP address, the one codec chosen; `version` goes up with each change. */
export function audioAnswer(local: RtpAddress, codec: G711, payloadType: number, session: number, version = session): string {
  const name = codec === 'pcmu' ? 'PCMU' : 'PCMA';
  return [
    'v=0',
    `o=- ${session} ${version} IN IP4 ${local.ip}`,
    's=meeting',
    `c=IN IP4 ${local.ip}`,
    't=0 0',
    `m=audio ${local.port} RTP/AVP ${payloadType}`,
    `a=rtpmap:${payloadType} ${name}/8000`,
    'a=sendrecv',
    '',
  ].join('\r\n');
}
