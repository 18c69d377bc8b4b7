import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The modules a signed-in user's first screen needs besides the entry: the default route (history) and English strings. */
const FIRST_SCREEN_MODULES = [/src\/plugins\/history\/lazy\.ts$/, /locales\/en\.json$/];

/**
 * Gzipped size of the JavaScript loaded before the first screen shows: the entry with its static
 * imports, plus the lazy chunks the default screen cannot render without (its route component and
 * the English strings), each with their static imports. Lazy chunks loaded later (the palette UI,
 * other languages) are not counted.
 */
export function initialJsGzipKb(distDir: string): { kb: number; files: string[] } {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const wanted = new Set<string>();
  const add = (key: string) => {
    if (wanted.has(key)) return;
    wanted.add(key);
    for (const dep of manifest[key]?.imports ?? []) add(dep);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry || FIRST_SCREEN_MODULES.some((re) => re.test(key))) add(key);
  }
  const files = [...new Set([...wanted].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js')))];
  let total = 0;
  for (const f of files) total += gzipSync(readFileSync(join(distDir, f))).length;
  return { kb: Math.round((total / 1024) * 10) / 10, files };
}
