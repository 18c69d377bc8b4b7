/**
 * The compact directory of every contact of the user: what the list, the palette and caller-name
 * lookups read. Fetched once (`GET /v1/contacts/index`), refreshed every 2 h and after each change.
 * Kept out of valtio (50,000 rows must not become proxies); subscribers hear about new versions.
 * Its loading (`directoryLoad.ts`) starts with the plugin's later part: the first screen only reads it.
 */
import type { ContactIndexRow, ContactSource, ContactWire } from '../../wire/contacts';

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

export function addLookups(l: Lookups, e: DirEntry): void {
  addNumbers(l.byNumber, e);
  l.byId.set(e.id, e);
}

export function numberKey(n: string): string {
  const d = n.replace(/\D/g, '');
  return d.length > 10 ? d.slice(-10) : d;
}

type Listener = () => void;

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

  /** Tells the subscribers without new rows (a load failed: `error` says why). */
  changed(): void {
    for (const fn of this.listeners) fn();
  }

  reset(): void {
    this.entries = null;
    this.byNumber.clear();
    this.byId.clear();
    this.version++;
  }
}

export const directory = new Directory();
