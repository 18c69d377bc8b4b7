import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * What a visitor without a session loads before the login form shows: the login page's chunk and
 * the shell's English strings. The language picker arrives after the form (a lazy chunk of its own)
 * and is not counted, as later chunks are not for the first screen.
 */
const LOGIN_MODULES = [/src\/shell\/LoginPage\.tsx$/, /src\/shell\/locales\/en\.json$/];

/** What the login page loads just after its form shows, without waiting for it: the language picker and the toasts. */
const LOGIN_LATER_MODULES = [/src\/shell\/LanguagePicker\.tsx$/, /src\/shell\/toasts\.tsx$/, /src\/shell\/loginToasts\.ts$/];

/**
 * What a signed-in user's first screen needs besides the entry: the app's chunk (kernel, router,
 * frame, palette host), the plugins' manifests, the default route (history) and English strings
 * (the shell's, and the plugins' boot strings, which vite.config.ts groups into one chunk).
 */
const FIRST_SCREEN_MODULES = [/src\/shell\/boot\.tsx$/, /src\/plugins\/index\.ts$/, /src\/plugins\/history\/lazy\.ts$/, /locales\/en\.json$/, /^_plugins-locale-en-/];

/** issue 17: the budgets of the two figures, in kB of gzipped JavaScript. */
export const BUNDLE_BUDGETS = { login_js_gzip_kb: 100, initial_js_gzip_kb: 200 } as const;

/**
 * Gzipped size of the JavaScript loaded before a screen shows: the entry with its static imports,
 * plus the lazy chunks of the given modules, each with their static imports. Lazy chunks loaded
 * later (the palette UI, other languages, the frame's menus) are not counted.
 */
function jsGzipKb(distDir: string, modules: readonly RegExp[]): { kb: number; files: string[] } {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const wanted = new Set<string>();
  const add = (key: string) => {
    if (wanted.has(key)) return;
    wanted.add(key);
    for (const dep of manifest[key]?.imports ?? []) add(dep);
  };
  for (const re of modules) if (!Object.keys(manifest).some((key) => re.test(key))) throw new Error(`bundle bench: no chunk for ${re}; was it renamed?`);
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry || modules.some((re) => re.test(key))) add(key);
  }
  const files = [...new Set([...wanted].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js')))];
  let total = 0;
  for (const f of files) total += gzipSync(readFileSync(join(distDir, f))).length;
  return { kb: Math.round((total / 1024) * 10) / 10, files };
}

/** The signed-in user's first screen (`initial_js_gzip_kb`). */
export function initialJsGzipKb(distDir: string): { kb: number; files: string[] } {
  return jsGzipKb(distDir, FIRST_SCREEN_MODULES);
}

/** The login page, before the user signs in (`login_js_gzip_kb`). */
export function loginJsGzipKb(distDir: string): { kb: number; files: string[] } {
  return jsGzipKb(distDir, LOGIN_MODULES);
}

/**
 * Both figures, and a line for each that is over its budget. Also, without a budget, what the login
 * page loads after its form shows (`login_later_js_gzip_kb`: mostly React Aria that the first screen
 * needs too, so it is in the cache when the user has signed in).
 */
export function benchBundle(distDir: string): { figures: Record<string, number>; over: string[] } {
  const login = loginJsGzipKb(distDir).kb;
  const loginAll = jsGzipKb(distDir, [...LOGIN_MODULES, ...LOGIN_LATER_MODULES]).kb;
  const figures = { login_js_gzip_kb: login, login_later_js_gzip_kb: Math.round((loginAll - login) * 10) / 10, initial_js_gzip_kb: initialJsGzipKb(distDir).kb };
  const over = Object.entries(BUNDLE_BUDGETS)
    .filter(([name, budget]) => figures[name as keyof typeof BUNDLE_BUDGETS] > budget)
    .map(([name, budget]) => `${name}=${figures[name as keyof typeof BUNDLE_BUDGETS]} is over its budget of ${budget}`);
  return { figures, over };
}
