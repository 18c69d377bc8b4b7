/**
 * The compact directory of every contact of the user: what the list, the palette and caller-name
 * lookups read. Fetched once (`GET /v1/contacts/index`), refreshed every 2 h and after each change.
 * Kept out of valtio (50,000 rows must not become proxies); subscribers hear about new versions.
 * Its one server call is here, not in api.ts: boot needs it, and api.ts stays in the lazy chunk.
 */
import { Api, toDisposable, type ApiClient, type Disposable, type PluginContext } from '../../kernel';
import { CONTACTS_REFRESH_MS, indexRowFromTsv } from '../../wire/contactGroups';
import type { ContactIndexRow, ContactSource, ContactWire } from '../../wire/contacts';
import { log } from './log';

export interface DirEntry {
  id: string;
  name: string;
  /** Numbers as stored (space separated in the wire row). */
  numbers: readonly string[];
  email: string;
  company: string;
  favorite: boolean;
  source: ContactSource;
  /** Lower-case name, company, e-mail: what a search term is matched against. */
  hay: string;
  /** Digits of every number, newline-separated. */
  digits: string;
}

export function toEntry(r: ContactIndexRow): DirEntry {
  const numbers = r[2] ? r[2].split(' ').filter(Boolean) : [];
  return {
    id: r[0],
    name: r[1],
    numbers,
    email: r[3],
    company: r[4],
    favorite: r[5] === 1,
    source: r[6],
    hay: `${r[1]}\n${r[4]}\n${r[3]}`.toLowerCase(),
    digits: numbers.map((n) => n.replace(/\D/g, '')).join('\n'),
  };
}

/** The directory row of a full contact (a saved one, or one of the server's pages). */
export function entryFromContact(c: ContactWire): DirEntry {
  const numbers = c.phone_numbers.map((p) => p.number || p.extension || '').filter(Boolean).join(' ');
  return toEntry([c.id, c.name, numbers, c.emails[0]?.email ?? '', c.company, c.favorite ? 1 : 0, c.source]);
}

/** Number → entry, by the last 10 digits (so +1 415… and 415… meet) and by short extensions. */
function addNumbers(map: Map<string, DirEntry>, e: DirEntry): void {
  for (const n of e.numbers) {
    const key = numberKey(n);
    // Company users win over personal duplicates: they are the ones ringing from an extension.
    if (key && (!map.has(key) || e.source === 'User')) map.set(key, e);
  }
}

/** The directory's lookups (by number, by id). */
export interface Lookups {
  byNumber: Map<string, DirEntry>;
  byId: Map<string, DirEntry>;
}

function addLookups(l: Lookups, e: DirEntry): void {
  addNumbers(l.byNumber, e);
  l.byId.set(e.id, e);
}

export function numberKey(n: string): string {
  const d = n.replace(/\D/g, '');
  return d.length > 10 ? d.slice(-10) : d;
}

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

type Listener = () => void;
export const DIRECTORY_LOADED = 'contacts:directory-loaded';

export class Directory {
  entries: readonly DirEntry[] | null = null;
  version = 0;
  loading: Promise<void> | null = null;
  error: unknown = null;
  private byNumber = new Map<string, DirEntry>();
  private byId = new Map<string, DirEntry>();
  private listeners = new Set<Listener>();

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** New rows; `lookups` when already built for them (a load builds them in short tasks). */
  set(rows: readonly DirEntry[], lookups?: Lookups): void {
    if (!lookups) {
      lookups = { byNumber: new Map(), byId: new Map() };
      for (const e of rows) addLookups(lookups, e);
    }
    this.entries = rows;
    this.byNumber = lookups.byNumber;
    this.byId = lookups.byId;
    this.version++;
    for (const fn of this.listeners) fn();
  }

  get(id: string): DirEntry | undefined {
    return this.byId.get(id);
  }

  lookupNumber(n: string): DirEntry | undefined {
    const key = numberKey(n);
    return key ? this.byNumber.get(key) : undefined;
  }

  /** Replaces one entry in place (optimistic favourite, an edit); returns the previous one. */
  patch(id: string, change: Partial<DirEntry>): DirEntry | undefined {
    const prev = this.byId.get(id);
    if (!prev || !this.entries) return undefined;
    const next = { ...prev, ...change };
    this.set(this.entries.map((e) => (e.id === id ? next : e)));
    return prev;
  }

  remove(ids: readonly string[]): void {
    if (!this.entries) return;
    const gone = new Set(ids);
    this.set(this.entries.filter((e) => !gone.has(e.id)));
  }

  load(api: Pick<ApiClient, 'raw'>): Promise<void> {
    this.loading ??= api
      .raw('GET', '/v1/contacts/index', { query: { format: 'tsv' } })
      .then(async (res) => {
        if (!res.ok) throw new Error(`contacts index: HTTP ${res.status}`);
        const text = await res.text();
        this.error = null;
        const rows = await entriesFromTsv(text);
        this.set(rows, await lookupsOf(rows));
        // In the Performance panel's timings (and what the benchmark waits for): the directory is in.
        performance.mark(DIRECTORY_LOADED);
      })
      .catch((err: unknown) => {
        this.error = err;
        log.error('loading the directory failed', err);
        for (const fn of this.listeners) fn();
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  reset(): void {
    this.entries = null;
    this.byNumber.clear();
    this.byId.clear();
    this.version++;
  }
}

export const directory = new Directory();

/** Loads the directory once the first screen has painted (for the palette and caller names), then every CONTACTS_REFRESH_MS. */
export function keepDirectoryLoaded(ctx: PluginContext): Disposable {
  const api = ctx.services.get(Api);
  ctx.afterFirstScreen(() => void directory.load(api));
  const refresh = setInterval(() => void directory.load(api), CONTACTS_REFRESH_MS);
  return toDisposable(() => {
    clearInterval(refresh);
    directory.reset();
  });
}
