import * as JsSIP from 'jssip';
import { readyOnUdpCandidates, type IceSessionLike } from './iceReady';
import type { UaConfig, UaLike } from './types';

/** The real user agent: JsSIP over the WebSocket Kamailio offers to browsers. */
export function createJsSipUa(c: UaConfig): UaLike {
  const ua = new JsSIP.UA({
    sockets: [new JsSIP.WebSocketInterface(c.wsUrl)],
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
