import { createHmac } from 'node:crypto';

/**
 * Lifetime of the SIP credentials `GET /v1/sip-credentials` mints: one hour. Long enough that a
 * client renews a handful of times a working day (it re-fetches at about 80 % of the lifetime and
 * re-registers on the same WebSocket with `ua.set('authorization_user')`/`ua.set('password')` +
 * `ua.register()`), short enough that a leaked credential is soon useless. Kamailio checks only
 * the expiry embedded in the username, so there is nothing to revoke server-side.
 */
export const SIP_CREDENTIAL_TTL_SECONDS = 3600;

export interface SipCredentials {
  /** `sip:<extension>@<domain>` */
  uri: string;
  /** `<unix expiry>:<extension>` (auth_ephemeral's username_format 1). */
  authorization_user: string;
  /** base64(HMAC-SHA1(secret, authorization_user)) */
  password: string;
  /** The same instant as the username's expiry, ISO 8601. */
  expires_at: string;
}

/**
 * Time-limited SIP credentials as Kamailio's auth_ephemeral checks them: the username carries the
 * expiry (whole Unix seconds) and the extension; the password is the HMAC-SHA1 of that username
 * keyed with the shared secret's text (`sipEphemeralSecret(cfg)`), in standard base64.
 * A negative `ttlSeconds` (or a `now` in the past) yields credentials that are already expired.
 */
export function mintSipCredentials(
  secret: string,
  extension: string,
  domain: string,
  ttlSeconds: number = SIP_CREDENTIAL_TTL_SECONDS,
  now: Date = new Date(),
): SipCredentials {
  if (!secret) throw new Error('mintSipCredentials: empty secret');
  if (!/^[0-9]{1,5}$/.test(extension)) throw new Error(`mintSipCredentials: not an extension: ${JSON.stringify(extension)}`);
  if (!Number.isFinite(ttlSeconds)) throw new Error('mintSipCredentials: ttlSeconds must be finite');
  const expiry = Math.floor(now.getTime() / 1000) + Math.trunc(ttlSeconds);
  const username = `${expiry}:${extension}`;
  return {
    uri: `sip:${extension}@${domain}`,
    authorization_user: username,
    password: createHmac('sha1', secret).update(username).digest('base64'),
    expires_at: new Date(expiry * 1000).toISOString(),
  };
}
