/**
 * The UDP datagrams of a classic libpcap file (what rtpengine's `--recording-method=pcap` writes).
 * The format is a 24-byte header and length-prefixed records; only the link layers rtpengine and
 * tcpdump produce for RTP are understood (raw IP, Ethernet, Linux cooked, BSD loopback).
 */
export interface UdpDatagram {
  /** Capture time, milliseconds since the epoch (sub-millisecond precision kept). */
  timeMs: number;
  src: string;
  dst: string;
  payload: Buffer;
}

const LINKTYPE = { NULL: 0, ETHERNET: 1, RAW: 101, LINUX_SLL: 113, LOOP: 108, IPV4: 228, IPV6: 229 } as const;

function ipv6(buf: Buffer, at: number): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(buf.readUInt16BE(at + i).toString(16));
  return `[${groups.join(':')}]`;
}

/** The IP packet's UDP datagram, or null for anything else (TCP, fragments, ICMP…). */
function udpOfIp(pkt: Buffer, timeMs: number): UdpDatagram | null {
  if (pkt.length < 1) return null;
  const version = pkt[0]! >> 4;
  let srcHost: string;
  let dstHost: string;
  let udpAt: number;
  if (version === 4) {
    const ihl = (pkt[0]! & 0x0f) * 4;
    if (pkt.length < ihl + 8 || pkt[9] !== 17) return null;
    // A fragment other than the first has no UDP header; RTP is never fragmented in practice.
    if ((pkt.readUInt16BE(6) & 0x1fff) !== 0) return null;
    srcHost = `${pkt[12]}.${pkt[13]}.${pkt[14]}.${pkt[15]}`;
    dstHost = `${pkt[16]}.${pkt[17]}.${pkt[18]}.${pkt[19]}`;
    udpAt = ihl;
  } else if (version === 6) {
    // Extension headers are not walked: RTP over IPv6 comes with UDP as the next header.
    if (pkt.length < 48 || pkt[6] !== 17) return null;
    srcHost = ipv6(pkt, 8);
    dstHost = ipv6(pkt, 24);
    udpAt = 40;
  } else {
    return null;
  }
  const udpLen = pkt.readUInt16BE(udpAt + 4);
  const end = Math.min(pkt.length, udpLen >= 8 ? udpAt + udpLen : pkt.length);
  return {
    timeMs,
    src: `${srcHost}:${pkt.readUInt16BE(udpAt)}`,
    dst: `${dstHost}:${pkt.readUInt16BE(udpAt + 2)}`,
    payload: pkt.subarray(udpAt + 8, end),
  };
}

/** Where the IP packet starts in a frame of this link type, or -1 when the frame carries no IP. */
function ipOffset(linktype: number, frame: Buffer, le: boolean): number {
  switch (linktype) {
    case LINKTYPE.RAW:
    case LINKTYPE.IPV4:
    case LINKTYPE.IPV6:
      return 0;
    case LINKTYPE.ETHERNET: {
      let at = 12;
      let type = frame.readUInt16BE(at);
      while (type === 0x8100 || type === 0x88a8) {
        at += 4;
        type = frame.readUInt16BE(at);
      }
      return type === 0x0800 || type === 0x86dd ? at + 2 : -1;
    }
    case LINKTYPE.LINUX_SLL: {
      const type = frame.readUInt16BE(14);
      return type === 0x0800 || type === 0x86dd ? 16 : -1;
    }
    case LINKTYPE.NULL:
    case LINKTYPE.LOOP: {
      const family = linktype === LINKTYPE.LOOP || !le ? frame.readUInt32BE(0) : frame.readUInt32LE(0);
      return family === 2 || family === 24 || family === 28 || family === 30 ? 4 : -1;
    }
    default:
      throw new Error(`pcap link type ${linktype} is not supported`);
  }
}

/** Every UDP datagram of the capture, in file order. A file cut short (still being written) ends early. */
export function readPcapUdp(pcap: Buffer): UdpDatagram[] {
  if (pcap.length < 24) throw new Error('not a pcap file (too short)');
  const magicLe = pcap.readUInt32LE(0);
  let le: boolean;
  let nano: boolean;
  if (magicLe === 0xa1b2c3d4 || magicLe === 0xa1b23c4d) {
    le = true;
    nano = magicLe === 0xa1b23c4d;
  } else {
    const magicBe = pcap.readUInt32BE(0);
    if (magicBe !== 0xa1b2c3d4 && magicBe !== 0xa1b23c4d) {
      throw new Error(pcap.readUInt32BE(0) === 0x0a0d0d0a ? 'pcapng files are not supported' : 'not a pcap file');
    }
    le = false;
    nano = magicBe === 0xa1b23c4d;
  }
  const u32 = (at: number) => (le ? pcap.readUInt32LE(at) : pcap.readUInt32BE(at));
  const linktype = u32(20) & 0x0fffffff;
  const out: UdpDatagram[] = [];
  let at = 24;
  while (at + 16 <= pcap.length) {
    const sec = u32(at);
    const frac = u32(at + 4);
    const caplen = u32(at + 8);
    const body = at + 16;
    if (body + caplen > pcap.length) break;
    const frame = pcap.subarray(body, body + caplen);
    at = body + caplen;
    const timeMs = sec * 1000 + (nano ? frac / 1e6 : frac / 1e3);
    const ip = frame.length ? ipOffset(linktype, frame, le) : -1;
    if (ip < 0 || ip >= frame.length) continue;
    const udp = udpOfIp(frame.subarray(ip), timeMs);
    if (udp) out.push(udp);
  }
  return out;
}
