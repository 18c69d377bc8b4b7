import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The build the server serves, named by its hashed entry script (`index-3f9c1a.js`) as written in
 * dist/index.html. Read again whenever index.html changes, so a rebuild under a running server is
 * seen by the next check (that is exactly when open tabs become stale).
 */
export function clientBuildReader(staticDir: string | undefined): () => Promise<string | null> {
  let cached: { mtimeMs: number; build: string | null } | null = null;
  return async () => {
    if (!staticDir) return null;
    const file = path.join(staticDir, 'index.html');
    try {
      const { mtimeMs } = await stat(file);
      if (cached?.mtimeMs === mtimeMs) return cached.build;
      const html = await readFile(file, 'utf8');
      cached = { mtimeMs, build: entryScriptOf(html) };
      return cached.build;
    } catch {
      return null;
    }
  };
}

/** The file name of the page's module entry script when it is a built asset; null otherwise. */
export function entryScriptOf(html: string): string | null {
  const m = /<script[^>]*type="module"[^>]*src="\/assets\/([^"]+\.js)"/.exec(html) ?? /<script[^>]*src="\/assets\/([^"]+\.js)"[^>]*type="module"/.exec(html);
  return m?.[1] ?? null;
}
