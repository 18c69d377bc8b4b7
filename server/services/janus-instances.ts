import { createHash } from 'node:crypto';
import type { ServicesConfig } from './layout';

/** One Janus the project runs: its service name (which is also its identity in placement) and ports. */
export interface JanusInstance {
  name: 'janus' | 'janus2';
  /** WebSocket API (the API server and the meeting pages). */
  ws: number;
  /** Admin API over WebSocket (operator only). */
  adminWs: number;
  rtpMin: number;
  rtpMax: number;
  /** The AudioBridge's plain-RTP ports (dial-in phones). */
  bridgeRtpMin: number;
  bridgeRtpMax: number;
}

/**
 * The Janus instances of this configuration, in a fixed order: one, or two in a cluster, which
 * share Janus's media range half and half (the range every copy of the product already reserves).
 */
export function janusInstances(cfg: Pick<ServicesConfig, 'ports' | 'cluster'>): JanusInstance[] {
  const { ports } = cfg;
  if (!cfg.cluster) return [{ name: 'janus', ws: ports.janusWs, adminWs: ports.janusAdminWs, rtpMin: ports.janusRtpMin, rtpMax: ports.janusRtpMax, bridgeRtpMin: ports.janusBridgeRtpMin, bridgeRtpMax: ports.janusBridgeRtpMax }];
  const half = Math.floor((ports.janusRtpMax - ports.janusRtpMin + 1) / 2);
  const bridgeHalf = Math.floor((ports.janusBridgeRtpMax - ports.janusBridgeRtpMin + 1) / 2);
  return [
    { name: 'janus', ws: ports.janusWs, adminWs: ports.janusAdminWs, rtpMin: ports.janusRtpMin, rtpMax: ports.janusRtpMin + half - 1, bridgeRtpMin: ports.janusBridgeRtpMin, bridgeRtpMax: ports.janusBridgeRtpMin + bridgeHalf - 1 },
    { name: 'janus2', ws: ports.janus2Ws, adminWs: ports.janus2AdminWs, rtpMin: ports.janusRtpMin + half, rtpMax: ports.janusRtpMax, bridgeRtpMin: ports.janusBridgeRtpMin + bridgeHalf, bridgeRtpMax: ports.janusBridgeRtpMax },
  ];
}

const score = (instance: string, meetingId: number) => createHash('sha256').update(`${instance}\0${meetingId}`).digest().readBigUInt64BE(0);

/**
 * Which instance (an index into `names`) holds a meeting's videoroom: rendezvous hashing of the
 * meeting id over the instances' names. It is a pure function of the id and the list, so every
 * API process, and the same process after a restart, picks the same Janus without storing or
 * sharing anything; and adding or removing an instance moves only the meetings that go to or came
 * from it (a modulo would move most of the others, cutting their media mid-meeting).
 */
export function placeMeeting(meetingId: number, names: readonly string[]): number {
  if (names.length === 0) throw new Error('no Janus instance to place a meeting on');
  let best = 0;
  let bestScore = -1n;
  names.forEach((name, i) => {
    const s = score(name, meetingId);
    if (s > bestScore) {
      best = i;
      bestScore = s;
    }
  });
  return best;
}
