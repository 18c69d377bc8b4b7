import path from 'node:path';
import { loadOrCreateSecret } from '../services/layout';

const MIN_SECRET_BYTES = 32;

export const jwtKeyPath = (runtimeDir: string) => path.join(runtimeDir, 'secrets', 'jwt.key');

/**
 * The HS256 key of the API's own tokens, created on first start. Every server copy sharing the
 * runtime folder (or a copy of this file) accepts the others' tokens, which keeps the API stateless.
 */
export async function loadOrCreateJwtSecret(runtimeDir: string): Promise<Uint8Array> {
  const secret = await loadOrCreateSecret(runtimeDir, path.basename(jwtKeyPath(runtimeDir)), 64);
  if (secret.length < MIN_SECRET_BYTES) throw new Error(`${jwtKeyPath(runtimeDir)} must hold at least ${MIN_SECRET_BYTES} random bytes (base64url)`);
  return new Uint8Array(secret);
}
