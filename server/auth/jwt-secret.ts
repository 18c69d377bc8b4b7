import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

const MIN_SECRET_BYTES = 32;

export const jwtKeyPath = (runtimeDir: string) => path.join(runtimeDir, 'secrets', 'jwt.key');

/**
 * The HS256 key, created on first start. Every server copy sharing the runtime folder (or a copy of
 * this file) accepts the others' tokens, which keeps the API stateless.
 */
export async function loadOrCreateJwtSecret(runtimeDir: string): Promise<Uint8Array> {
  const file = jwtKeyPath(runtimeDir);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written aside then linked into place: link() is atomic and refuses an existing file, so two
  // servers starting together never read a half-written key nor overwrite each other's.
  const draft = `${file}.${process.pid}.tmp`;
  await writeFile(draft, `${randomBytes(64).toString('base64url')}\n`, { mode: 0o600 });
  try {
    await link(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(draft);
  }
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  const secret = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
  if (secret.length < MIN_SECRET_BYTES) throw new Error(`${file} must hold at least ${MIN_SECRET_BYTES} random bytes (base64url)`);
  return new Uint8Array(secret);
}
