/**
 * The project's own ports, all on 127.0.0.1, derived from one base so that a second copy (the test
 * suite next to a running product) only needs another base. Product: 15000. Tests: 25000.
 */
export interface ServicePorts {
  base: number;
  /** ejabberd HTTP listener: XMPP over WebSocket at /ws (what the browser uses). */
  xmppHttp: number;
  /** ejabberd mod_http_api, loopback only: provisioning by the API server. */
  xmppApi: number;
  /** ejabberd plain c2s (XMPP over TCP): independent test clients such as slixmpp. */
  xmppC2s: number;
  /** Erlang distribution port (no epmd). */
  xmppErlDist: number;
  /** The second ejabberd node of a cluster (UC_CLUSTER=1): its WebSocket listener, API, c2s and distribution ports. */
  xmpp2Http: number;
  xmpp2Api: number;
  xmpp2C2s: number;
  xmpp2ErlDist: number;
  /** Kamailio SIP over WebSocket (TCP listener). */
  sipWs: number;
  /** Kamailio SIP over UDP: gateways and plain SIP phones. */
  sipUdp: number;
  /** The external-number gateway Kamailio routes to (in tests a real SIP phone listens here). */
  sipGateway: number;
  /** rtpengine control ("ng" protocol, UDP). */
  rtpengineNg: number;
  /** The second rtpengine's control, in a cluster (UC_CLUSTER=1). */
  rtpengine2Ng: number;
  /** The second Kamailio's SIP over WebSocket and over UDP, in a cluster: node 1's ports + 180. */
  sipWs2: number;
  sipUdp2: number;
  /** The API server listens here (UDP, loopback) for rtpengine's DTMF events: recording by DTMF. */
  dtmfEvents: number;
  /** The voicemail phone (baresip) that answers calls for mailboxes: SIP over UDP (its SIP-TLS takes +1). */
  voicemailSip: number;
  /** Its control connection (ctrl_tcp), used by the API server only. */
  voicemailCtrl: number;
  /** Its RTP ports (towards rtpengine). */
  voicemailRtpMin: number;
  voicemailRtpMax: number;
  /** The echo phone (baresip's echo module) that answers the echo test number: SIP over UDP (its SIP-TLS takes +1). */
  echoSip: number;
  /** Its RTP ports (towards rtpengine). */
  echoRtpMin: number;
  echoRtpMax: number;
  /** The click-dial phone (baresip) that rings a user's desk phone and transfers it to the number: SIP over UDP (its SIP-TLS takes +1). */
  clickDialSip: number;
  /** Its control connection (ctrl_tcp), used by the API server only. */
  clickDialCtrl: number;
  /** Its RTP ports (towards rtpengine). */
  clickDialRtpMin: number;
  clickDialRtpMax: number;
  rtpMin: number;
  rtpMax: number;
  /** Janus's WebSocket API (subprotocol janus-protocol): the meeting pages and the API server. */
  janusWs: number;
  /** Janus's Admin API over WebSocket (janus-admin-protocol), for the operator only. */
  janusAdminWs: number;
  /** Janus's media ports (WebRTC, one per PeerConnection with bundling); in a cluster the first half only (janus-instances.ts). */
  janusRtpMin: number;
  janusRtpMax: number;
  /** The second Janus of a cluster (UC_CLUSTER=1): its WebSocket API and Admin API; its media ports are the second half of Janus's range. */
  janus2Ws: number;
  janus2AdminWs: number;
  /** The AudioBridge's plain-RTP ports (phones dialled into meetings); in a cluster halved like janusRtp. */
  janusBridgeRtpMin: number;
  janusBridgeRtpMax: number;
  /** The meetings' dial-in user agent (server/meetings/dial-in.ts, in the API server): SIP over UDP, Kamailio only. */
  dialInSip: number;
  /** coturn's TURN/STUN listener (UDP and TCP): 3478, the standard port, in the product. */
  turn: number;
  /** coturn's relay ports. */
  turnRelayMin: number;
  turnRelayMax: number;
}

/**
 * The second Kamailio's address (a cluster). Each node has its own, as on two machines: Kamailio
 * tells a registration made on itself from one made on the other node by the address of its Path
 * (never the port), and loopback has a whole /8 of addresses.
 */
export const KAMAILIO2_HOST = '127.0.0.2';

export const PRODUCT_PORT_BASE = 15000;
export const TEST_PORT_BASE = 25000;

export function servicePorts(base: number = Number(process.env.UC_PORT_BASE || PRODUCT_PORT_BASE)): ServicePorts {
  if (!Number.isInteger(base) || base < 1024 || base > 60000) throw new Error(`UC_PORT_BASE must be an integer in 1024–60000, got ${base}`);
  // Media ports: 500 per copy, above the signalling ports of every copy.
  const rtpMin = 30000 + Math.floor(base / 1000) * 500;
  return {
    base,
    xmppHttp: base + 280,
    xmppApi: base + 281,
    xmppC2s: base + 222,
    xmppErlDist: base + 299,
    xmpp2Http: base + 230,
    xmpp2Api: base + 231,
    xmpp2C2s: base + 232,
    xmpp2ErlDist: base + 233,
    sipWs: base + 60,
    sipUdp: base + 62,
    sipGateway: base + 70,
    rtpengineNg: base + 223,
    rtpengine2Ng: base + 225,
    // The second nodes' ports: base+240–249 was free.
    sipWs2: base + 240,
    sipUdp2: base + 242,
    dtmfEvents: base + 224,
    voicemailSip: base + 64,
    voicemailCtrl: base + 67,
    voicemailRtpMin: base + 450,
    voicemailRtpMax: base + 499,
    echoSip: base + 76,
    echoRtpMin: base + 300,
    echoRtpMax: base + 349,
    clickDialSip: base + 84,
    clickDialCtrl: base + 87,
    clickDialRtpMin: base + 350,
    clickDialRtpMax: base + 369,
    rtpMin,
    rtpMax: rtpMin + 499,
    // Janus and coturn came later: the free ports of the copy's own thousand (base+500–899 had none).
    janusWs: base + 100,
    janusAdminWs: base + 101,
    janusRtpMin: base + 500,
    janusRtpMax: base + 699,
    janus2Ws: base + 110,
    janus2AdminWs: base + 111,
    janusBridgeRtpMin: base + 900,
    janusBridgeRtpMax: base + 999,
    dialInSip: base + 234,
    turn: base === PRODUCT_PORT_BASE ? 3478 : base + 102,
    turnRelayMin: base + 700,
    turnRelayMax: base + 899,
  };
}
