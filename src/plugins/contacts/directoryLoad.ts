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

/** One run of work's time budget: `spent()` says when to give the page a turn (the clock read every 128 calls). */
class TaskBudget {
  private until = performance.now() + SLICE_MS;
  private calls = 0;
  spent(): boolean {
    return (++this.calls & 127) === 0 && performance.now() >= this.until;
  }
  async nextTask(): Promise<void> {
    await nextTask();
    this.until = performance.now() + SLICE_MS;
  }
}

/** Calls `each(0…n-1)` in tasks of at most about SLICE_MS (`budget`: shared with the work before). */
export async function inSlices(n: number, each: (i: number) => void, budget = new TaskBudget()): Promise<void> {
  for (let i = 0; i < n; i++) {
    each(i);
    if (budget.spent() && i + 1 < n) await budget.nextTask();
  }
}

/** The directory's tab-separated text (see `indexRowToTsv`), in parts of whole lines, as entries, in short tasks. */
export async function entriesFromTsv(parts: readonly string[]): Promise<DirEntry[]> {
  const out: DirEntry[] = [];
  const budget = new TaskBudget();
  for (const part of parts) {
    if (!part) continue;
    const lines = part.split('\n');
    await inSlices(lines.length, (i) => void out.push(toEntry(indexRowFromTsv(lines[i]!))), budget);
  }
  return out;
}

/** The lookups of `rows`, in short tasks (50,000 rows' numbers at once took 100 ms). */
export async function lookupsOf(rows: readonly DirEntry[]): Promise<Lookups> {
  const l: Lookups = { byNumber: new Map(), byId: new Map() };
  await inSlices(rows.length, (i) => addLookups(l, rows[i]!));
  return l;
}

export const DIRECTORY_LOADED = 'contacts:directory-loaded';
/** The request sent, and its text handed to this thread (the body is read in a worker). */
export const DIRECTORY_REQUESTED = 'contacts:directory-requested';
export const DIRECTORY_RECEIVED = 'contacts:directory-received';

/** Loads `d` (the user's directory unless told) from the server; a load under way is shared. */
export function loadDirectory(api: Pick<ApiClient, 'textInParts'>, d: Directory = theDirectory): Promise<void> {
  if (d.loading) return d.loading;
  performance.mark(DIRECTORY_REQUESTED);
  // Read off the main thread (`textInParts`): the text is megabytes at 50,000 contacts.
  const loading = api
    .textInParts('/v1/contacts/index', { query: { format: 'tsv' } })
    .then(async (parts) => {
      performance.mark(DIRECTORY_RECEIVED);
      d.error = null;
      const rows = await entriesFromTsv(parts);
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
  d.loading = loading;
  return loading;
}

/** Loads the directory now (the later part comes after the first screen: for the palette and caller names), then every CONTACTS_REFRESH_MS. */
export function keepDirectoryLoaded(ctx: PluginContext): Disposable {
  const api = ctx.services.get(Api);
  void loadDirectory(api);
  const refresh = setInterval(() => void loadDirectory(api), CONTACTS_REFRESH_MS);
  return toDisposable(() => clearInterval(refresh));
}
