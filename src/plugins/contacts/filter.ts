/**
 * Searching the directory: the contacts screen's group filter and search term. Only the lazily
 * loaded screen uses it, so it stays out of the first-screen bundle (directory.ts is in it).
 */
import type { ContactGroup } from '../../wire/contacts';
import type { DirEntry } from './directory';

/** Which groups the directory can answer; Google/Microsoft only with a connected integration. */
export function inGroup(e: DirEntry, group: ContactGroup): boolean {
  switch (group) {
    case 'all':
      return true;
    case 'user':
    case 'company':
      return e.source === 'User';
    case 'personal':
      return e.source === 'personal';
    case 'google':
      return e.source === 'google';
    case 'favorites':
      return e.favorite;
    case 'phones':
      return e.numbers.length > 0;
    // Speed-dial targets come from a service that does not report any yet; who is in a meeting
    // the directory cannot say: the screen shows the server's list for that group (?group=meeting).
    case 'speeddial':
    case 'meeting':
      return false;
  }
}

/** What a term is matched as: lower-cased text, and the digits of a number-like term. */
function normalise(term: string): { text: string; digits: string } {
  const text = term.trim().toLowerCase();
  return { text, digits: /^[\d\s()+.-]+$/.test(text) ? text.replace(/\D/g, '') : '' };
}

/** A term matches names, company and e-mail as a substring; digits (3+) also match any number. */
export function matcher(term: string): (e: DirEntry) => boolean {
  const { text: t, digits } = normalise(term);
  if (!t) return () => true;
  return (e) => e.hay.includes(t) || (digits !== '' && e.digits.includes(digits));
}

export function filterDirectory(entries: readonly DirEntry[], group: ContactGroup, term: string): DirEntry[] {
  const m = matcher(term);
  const out: DirEntry[] = [];
  for (const e of entries) if (inGroup(e, group) && m(e)) out.push(e);
  return out;
}

/**
 * Whether every entry `next` matches also matches `prev`: then `next` can filter `prev`'s rows
 * instead of the whole directory. Substrings hold that when the text grows around the old one;
 * digits only when the old term matched digits too (a bare "(" matched none).
 */
export function narrows(prev: string, next: string): boolean {
  const a = normalise(prev);
  const b = normalise(next);
  return b.text.includes(a.text) && (b.digits === '' || (a.digits !== '' && b.digits.includes(a.digits)));
}

/** A search's rows: all of them, or (`complete: false`) only the first `limit` in list order, there being more. */
export interface DirectoryHits {
  rows: DirEntry[];
  complete: boolean;
}

/**
 * filterDirectory for a term typed key by key: a term that narrows the previous one filters the
 * previous rows (a few hundred after the first letters) rather than all 50,000 entries again.
 * With a `limit` it stops at that many rows when there are more ("s" keeps ~40,000 of 50,000
 * contacts): the first rows in list order are the first rows of the whole result, and the screen
 * asks for the rest a task later. Only a complete result is narrowed from.
 */
export function directorySearch(): (entries: readonly DirEntry[], group: ContactGroup, term: string, limit?: number) => DirectoryHits {
  let last: { entries: readonly DirEntry[]; group: ContactGroup; term: string; rows: DirEntry[] } | null = null;
  return (entries, group, term, limit = Infinity) => {
    const narrowed = last && last.entries === entries && last.group === group && narrows(last.term, term);
    const from = narrowed ? last!.rows : entries;
    const inside = narrowed ? 'all' : group;
    const m = matcher(term);
    const rows: DirEntry[] = [];
    let i = 0;
    for (; i < from.length; i++) {
      const e = from[i]!;
      if (!inGroup(e, inside) || !m(e)) continue;
      if (rows.length === limit) break;
      rows.push(e);
    }
    const complete = i === from.length;
    if (complete) last = { entries, group, term, rows };
    return { rows, complete };
  };
}
