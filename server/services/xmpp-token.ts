import { SignJWT } from 'jose';
import { xmppJwtSecret } from './ejabberd';
import type { ServicesConfig } from './layout';

/**
 * Ten minutes: long enough for a slow WebSocket connect plus SASL, short enough that a leaked token
 * is soon useless. ejabberd checks `exp` only at login, so an open session outlives its token; the
 * client fetches a new one for every (re)connect.
 */
export const XMPP_TOKEN_TTL_SECONDS = 10 * 60;

/**
 * The XMPP node of an API user: lower-case (logins are case-insensitive, JIDs are compared
 * lower-cased anyway), with XEP-0106 escapes for the few characters a JID node may not hold, so any
 * username maps to exactly one account.
 */
export function xmppLocalPart(username: string): string {
  const escapes: Record<string, string> = {
    ' ': '\\20', '"': '\\22', '&': '\\26', "'": '\\27', '/': '\\2f', ':': '\\3a', '<': '\\3c', '>': '\\3e', '@': '\\40', '\\': '\\5c',
  };
  return username.toLowerCase().replace(/[ "&'/:<>@\\]/g, (c) => escapes[c]!);
}

export const xmppJid = (cfg: Pick<ServicesConfig, 'domain'>, username: string) => `${xmppLocalPart(username)}@${cfg.domain}`;

export interface XmppToken {
  jid: string;
  token: string;
  /** Unix seconds, as in the token's `exp`. */
  exp: number;
}

export interface MintOptions {
  /** API username; the JID is derived from it. */
  username: string;
  /** `sub` claim, e.g. `user:<id>` (same convention as the API's own tokens). */
  subject: string;
  /** Lifetime; negative values mint an already expired token (tests). */
  ttlSeconds?: number;
  /** Clock, for tests. */
  now?: Date;
}

/**
 * HS256 JWT that ejabberd accepts as the SASL PLAIN password (`jwt_jid_field: jid`). The `exp` must
 * be numeric: ejabberd treats a string `exp` as "never expires".
 */
export async function mintXmppToken(cfg: ServicesConfig, opts: MintOptions): Promise<XmppToken> {
  const jid = xmppJid(cfg, opts.username);
  const iat = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const exp = iat + (opts.ttlSeconds ?? XMPP_TOKEN_TTL_SECONDS);
  const token = await new SignJWT({ jid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(opts.subject)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(await xmppJwtSecret(cfg));
  return { jid, token, exp };
}
