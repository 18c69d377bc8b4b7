/**
 * Loading the directory (`GET /v1/contacts/index`, a tab-separated text) in short tasks, and keeping
 * it fresh: from the plugin's later part (the first screen never waits for the directory), the
 * screen and "Refresh". Its one server call is here, not in api.ts, which stays in the lazy chunk.
 */
import { Api, toDisposable, type ApiClient, type Disposable, type PluginContext } from '../../kernel';
import { CONTACTS_REFRESH_MS, indexRowFromTsv } from '../../wire/contactGroups';
import { addLookups, directory as theDirectory, toEntry, type Directory, type DirEntry, type Lookups } from './directory';
import { log } from './log';

/**
 * Main-thread time one task of directory work may take before the page gets a turn: tens of
 * thousands of rows at once held it for over 100 ms (a fixed 5,000 rows per task took 20 ms on a
 * quiet machine and 80 on a busy one); a time budget keeps each task short on any machine.
 */
const SLICE_MS = 8;
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Calls `each(0…n-1)` in tasks of at most about SLICE_MS, the clock read every 128 calls. */
export async function inSlices(n: number, each: (i: number) => void): Promise<void> {
  let i = 0;
  while (i < n) {
    const until = performance.now() + SLICE_MS;
    do each(i++);
    while (i < n && ((i & 127) !== 0 || performance.now() < until));
    if (i < n) await nextTask();
  }
}

/** The directory's tab-separated text (see `indexRowToTsv`) as entries, in short tasks. */
export async function entriesFromTsv(text: string): Promise<DirEntry[]> {
  const lines = text ? text.split('\n') : [];
  const out: DirEntry[] = new Array<DirEntry>(lines.length);
  await inSlices(lines.length, (i) => void (out[i] = toEntry(indexRowFromTsv(lines[i]!))));
  return out;
}

/** The lookups of `rows`, in short tasks (50,000 rows' numbers at once took 100 ms). */
export async function lookupsOf(rows: readonly DirEntry[]): Promise<Lookups> {
  const l: Lookups = { byNumber: new Map(), byId: new Map() };
  await inSlices(rows.length, (i) => addLookups(l, rows[i]!));
  return l;
}

export const DIRECTORY_LOADED = 'contacts:directory-loaded';

/** Loads `d` (the user's directory unless told) from the server; a load under way is shared. */
export function loadDirectory(api: Pick<ApiClient, 'raw'>, d: Directory = theDirectory): Promise<void> {
  d.loading ??= api
    .raw('GET', '/v1/contacts/index', { query: { format: 'tsv' } })
    .then(async (res) => {
      if (!res.ok) throw new Error(`contacts index: HTTP ${res.status}`);
      const text = await res.text();
      d.error = null;
      const rows = await entriesFromTsv(text);
      d.set(rows, await lookupsOf(rows));
      // In the Performance panel's timings (and what the benchmark waits for): the directory is in.
      performance.mark(DIRECTORY_LOADED);
    })
    .catch((err: unknown) => {
      d.error = err;
      log.error('loading the directory failed', err);
      d.changed();
    })
    .finally(() => {
      d.loading = null;
    });
  return d.loading;
}

/** Loads the directory now (the later part comes after the first screen: for the palette and caller names), then every CONTACTS_REFRESH_MS. */
export function keepDirectoryLoaded(ctx: PluginContext): Disposable {
  const api = ctx.services.get(Api);
  void loadDirectory(api);
  const refresh = setInterval(() => void loadDirectory(api), CONTACTS_REFRESH_MS);
  return toDisposable(() => clearInterval(refresh));
}
