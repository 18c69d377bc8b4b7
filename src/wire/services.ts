import * as z from 'zod/mini';

/** `GET /v1/xmpp-token`: a short-lived JWT the client sends as its XMPP (SASL PLAIN) password. */
export const XmppTokenResponse = z.object({
  /** Bare JID, e.g. `alice@uc.local`. */
  jid: z.string(),
  token: z.string(),
  /** ISO 8601 instant after which ejabberd refuses the token. */
  expires_at: z.string(),
  /** XMPP over WebSocket endpoint. */
  ws_url: z.string(),
  /** Every node's endpoint in a cluster, `ws_url` first: tried in turn when a node is gone. Absent: `ws_url` only. */
  ws_urls: z.optional(z.array(z.string())),
});
export type XmppTokenResponse = z.infer<typeof XmppTokenResponse>;

/** An RTCIceServer as the API hands it out: coturn with a short-lived credential. */
export const IceServer = z.object({ urls: z.array(z.string()), username: z.string(), credential: z.string() });
export type IceServer = z.infer<typeof IceServer>;

/** `GET /v1/sip-credentials`: time-limited SIP credentials (Kamailio auth_ephemeral). */
export const SipCredentialsResponse = z.object({
  /** `sip:<extension>@<domain>` */
  uri: z.string(),
  /** `<unix expiry>:<extension>` */
  authorization_user: z.string(),
  password: z.string(),
  expires_at: z.string(),
  ws_url: z.string(),
  /** Every Kamailio's WebSocket (a cluster), ws_url first; absent: ws_url alone. */
  ws_urls: z.optional(z.array(z.string())),
  /** The calls' ICE servers (TURN), renewed with the SIP credentials; absent: none. */
  ice_servers: z.optional(z.array(IceServer)),
});
export type SipCredentialsResponse = z.infer<typeof SipCredentialsResponse>;

/**
 * `GET /v1/turn-credentials`: one ICE server entry (RTCIceServer's shape) for coturn, with
 * credentials of the TURN REST API scheme: `username` is `<unix expiry>:<user id>`, `credential`
 * base64(HMAC-SHA1(secret, username)). Meetings and calls put it in their RTCPeerConnection.
 */
export const TurnCredentialsResponse = z.object({
  urls: z.array(z.string()),
  username: z.string(),
  credential: z.string(),
  ttl_seconds: z.int(),
  expires_at: z.string(),
});
export type TurnCredentialsResponse = z.infer<typeof TurnCredentialsResponse>;

/** The error code of `GET /v1/sip-credentials` (404) for a user without an extension. */
export const SIP_NOT_CONFIGURED = 'sip_not_configured' as const;

/**
 * The echo test's number: a call to it through Kamailio and rtpengine returns the caller's own audio
 * (the phone's "Test connection" places it; anyone may dial it to hear themselves). Extensions are
 * digits only, so a number with a star never belongs to a user.
 */
export const ECHO_EXTENSION = '*43';

/**
 * The meetings' dial-in number (a service code, like the echo test's): a phone dials
 * `*64*<meeting ID>*<phone PIN>` and joins that meeting's audio (server/meetings/dial-in.ts).
 */
export const MEETING_DIAL_IN = '*64';

/** What a phone dials to join a meeting's audio: the digits carry the meeting ID and its phone PIN. */
export const dialInString = (accessCode: string, phonePin: string): string => `${MEETING_DIAL_IN}*${accessCode}*${phonePin}`;

/** Which web client of a user holds the phone registration. */
export const REG_CLIENT = 'web' as const;

/**
 * A registration hold lasts this long unless its peer renews it (a closed or crashed tab frees
 * the phone within this time). Clients renew every `REG_RENEW_SECONDS`.
 */
export const REG_HOLD_SECONDS = 90;
export const REG_RENEW_SECONDS = 30;

/** `POST /v1/regreserve`: a web client asks to hold the user's phone registration. */
export const RegReserveRequest = z.object({
  /** An id the client picks once per tab/device (e.g. a UUID), sent again on every renewal. */
  peer: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  client: z.literal(REG_CLIENT),
  /**
   * Take the hold even though another peer holds it (the user chose "use calling here"): the
   * other peer learns it lost the hold at its next renewal (`granted: false`) and stops its phone.
   */
  takeover: z.optional(z.boolean()),
  /**
   * Give the hold up (the tab is closing or signing out), so that another tab or browser of the
   * user gets the phone at once instead of after the hold lapses. Only the holder can release it.
   */
  release: z.optional(z.boolean()),
});
export type RegReserveRequest = z.infer<typeof RegReserveRequest>;

/** `GET /v1/regactive` and the answer of `POST /v1/regreserve`. */
export const RegActiveResponse = z.object({
  /** The peer that holds the registration, or null when none does. */
  peer: z.nullable(z.string()),
  client: z.nullable(z.literal(REG_CLIENT)),
  /** When the hold lapses unless renewed. */
  expires_at: z.nullable(z.string()),
  /** True when the caller's `peer` (regreserve) is the holder. */
  granted: z.optional(z.boolean()),
});
export type RegActiveResponse = z.infer<typeof RegActiveResponse>;

/** One colleague a user may chat with (`GET /v1/chat/contacts`): the organisation's users with chat. */
export const ChatContact = z.object({
  user_id: z.int(),
  /** Bare JID of the colleague's chat account. */
  jid: z.string(),
  name: z.string(),
});
export type ChatContact = z.infer<typeof ChatContact>;

/**
 * `GET /v1/chat/contacts`: everyone of the caller's organisation who has chat (not the
 * limited-access role), the caller excluded, sorted by name. The JIDs come from the server, which
 * owns the username → JID mapping.
 */
export const ChatContactsResponse = z.object({ contacts: z.array(ChatContact) });
export type ChatContactsResponse = z.infer<typeof ChatContactsResponse>;
