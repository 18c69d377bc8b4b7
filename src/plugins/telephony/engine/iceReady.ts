/**
 * When JsSIP may send its offer or answer: as soon as the host UDP candidates are in the SDP,
 * instead of when ICE gathering is complete.
 *
 * JsSIP sends the INVITE (or the 200 OK) only once gathering is complete. Chromium gathers the
 * UDP host candidates of every interface within a millisecond or two, then the TCP ones about
 * 100 ms later, and only then says complete. Our calls go through rtpengine, which relays UDP
 * media only (ICE over TCP is of no use to it), and we give the browser no STUN or TURN servers
 * (CALL_OPTIONS), so nothing useful comes after the UDP host candidates: waiting for them alone
 * takes that 100+ ms off every call setup, on both sides. A short quiet time after the last UDP
 * candidate lets the other interfaces' candidates in; without any UDP candidate JsSIP waits for
 * the end of gathering as before.
 */

/**
 * Quiet time after the last UDP candidate before the description is used. Chromium gathers the
 * host candidates of all interfaces in one step of its network thread, so their events are queued
 * back to back (0.1–0.5 ms apart here, measured): a couple of milliseconds let them in. One that
 * comes later still is not needed: rtpengine answers with its own candidate, the browser's checks
 * to it go out from every local interface, and rtpengine learns the address they come from
 * (a peer-reflexive candidate).
 */
export const ICE_SETTLE_MS = 2;

/** What JsSIP's RTCSession emits for each gathered candidate. */
export interface IceCandidateEvent {
  candidate: Pick<RTCIceCandidate, 'candidate'> & { protocol?: RTCIceProtocol | null };
  ready: () => void;
}

export interface IceSessionLike {
  on(event: 'icecandidate', listener: (e: IceCandidateEvent) => void): unknown;
}

/** `candidate:<foundation> <component> <protocol> …` when the browser gives no `protocol`. */
const isUdp = (c: IceCandidateEvent['candidate']) => (c.protocol ?? c.candidate.split(' ')[2] ?? '').toLowerCase() === 'udp';

/** Lets `session` go on ICE_SETTLE_MS after its last UDP candidate (for each offer or answer it makes). */
export function readyOnUdpCandidates(session: IceSessionLike, settleMs = ICE_SETTLE_MS): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  session.on('icecandidate', ({ candidate, ready }) => {
    if (!isUdp(candidate)) return;
    clearTimeout(timer);
    timer = setTimeout(ready, settleMs);
  });
}
