import * as JsSIP from 'jssip';
import { readyOnUdpCandidates, type IceSessionLike } from './iceReady';
import type { UaConfig, UaLike } from './types';

/**
 * JsSIP's sockets: one Kamailio, or every node of a cluster with equal weights, so that browsers
 * spread over the nodes and, when theirs dies, JsSIP's recovery connects to another (it skips a
 * socket that failed) and registers there.
 */
export function uaSockets(c: Pick<UaConfig, 'wsUrl' | 'wsUrls'>): Array<{ socket: JsSIP.WebSocketInterface; weight: number }> {
  const urls = c.wsUrls?.length ? c.wsUrls : [c.wsUrl];
  return urls.map((url) => ({ socket: new JsSIP.WebSocketInterface(url), weight: 1 }));
}

/** The real user agent: JsSIP over the WebSocket Kamailio offers to browsers. */
export function createJsSipUa(c: UaConfig): UaLike {
  const ua = new JsSIP.UA({
    sockets: uaSockets(c),
    uri: c.uri,
    authorization_user: c.authorizationUser,
    password: c.password,
    display_name: c.displayName || undefined,
    register: true,
    register_expires: c.registerExpires,
    no_answer_timeout: c.noAnswerTimeout,
    session_timers: true,
    user_agent: 'uc-web',
  });
  // Offers and answers leave once the UDP host candidates are in (see iceReady.ts).
  ua.on('newRTCSession', ({ session }: { session: unknown }) => readyOnUdpCandidates(session as unknown as IceSessionLike));
  return ua as unknown as UaLike;
}
