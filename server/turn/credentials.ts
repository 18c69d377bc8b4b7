import { createHmac } from 'node:crypto';
import { loadOrCreateSecret, SECRET_NAMES, type ServicesConfig } from '../services/layout';

/**
 * Lifetime of TURN credentials: twelve hours. coturn checks the expiry again on every refresh of
 * an allocation, so a credential must outlast the call or meeting that uses it, not just its start.
 */
export const TURN_CREDENTIAL_TTL_SECONDS = 12 * 3600;

export interface TurnCredentials {
  /** `<unix expiry>:<user id>` (coturn's use-auth-secret). */
  username: string;
  /** base64(HMAC-SHA1(secret, username)) */
  credential: string;
  expiresAt: Date;
}

/** The TURN REST API scheme coturn checks with `use-auth-secret` and `static-auth-secret`. */
export function mintTurnCredentials(secret: string, userId: string | number, ttlSeconds = TURN_CREDENTIAL_TTL_SECONDS, now = new Date()): TurnCredentials {
  if (!secret) throw new Error('mintTurnCredentials: empty secret');
  const expiry = Math.floor(now.getTime() / 1000) + Math.trunc(ttlSeconds);
  const username = `${expiry}:${userId}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64'), expiresAt: new Date(expiry * 1000) };
}

/** coturn's static-auth-secret, as the text it reads from its config (see server/services/coturn.ts). */
export const turnSecret = async (cfg: Pick<ServicesConfig, 'runtimeDir'>) => (await loadOrCreateSecret(cfg.runtimeDir, SECRET_NAMES.turn)).toString('base64url');
