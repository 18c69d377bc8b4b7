import uFuzzy from '@leeoniya/ufuzzy';

export interface IndexEntry<T> {
  /** What is matched: label plus keywords. */
  text: string;
  ref: T;
}

/** Above this many hits, ranking (uFuzzy's info+sort) costs more than it is worth; we rank cheaply. */
const RANK_LIMIT = 2000;

/** How many needles' hits are kept for the next keystrokes (up to 50,000 indexes each). */
const RECENT_NEEDLES = 16;

interface Hits {
  hay: string[];
  needle: string;
  /** Every in-order hit, ascending. */
  idxs: number[];
  /** Every any-order hit, ascending, when there was no in-order hit and the second chance ran. */
  anyOrder?: number[];
}

const OPTIONS = { intraMode: 1, intraIns: 1, interIns: Infinity } as const;
/** uFuzzy's universal variant (its README): letters of any script, a little slower than Latin only. */
const UNIVERSAL = { unicode: true, interSplit: "[^\\p{L}\\d']+", intraSplit: '\\p{Ll}\\p{Lu}', intraBound: '\\p{L}\\d|\\d\\p{L}|\\p{Ll}\\p{Lu}', intraChars: "[\\p{L}\\d']", intraContr: "'\\p{L}{1,2}\\b" } as const;
const ASCII = /^[\x00-\x7f]*$/;

const TERMS = /[^a-z\d]+/;
const PARTS = /[^\d]+|\d+/g;

/**
 * Whether every string uFuzzy's filter finds for `next` it also finds for `prev` (the previous
 * keystroke's needle), so that `next` need only test `prev`'s hits. Holds when `next` adds terms or
 * letters to `prev`'s last term, except where uFuzzy's rules for a short term change with its
 * length: 1–2 letters match exactly, 3 allow a swap, 4 a swap or an insertion, 5 and more one error
 * of any kind (its intraRules); "abc" does not find "abdc", which "abcd" finds with an insertion.
 * Digits always match exactly. Quotes, apostrophes (contractions) and non-ASCII are not narrowed.
 */
export function narrows(prev: string, next: string): boolean {
  if (!prev || !next.startsWith(prev) || !ASCII.test(next) || /["'-]/.test(next)) return false;
  const a = prev.toLowerCase().split(TERMS).filter(Boolean);
  const b = next.toLowerCase().split(TERMS).filter(Boolean);
  if (!a.length) return false;
  const n = a.length - 1;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  const was = a[n]!.match(PARTS)!;
  const now = b[n]!.match(PARTS)!;
  const k = was.length - 1;
  for (let i = 0; i < k; i++) if (was[i] !== now[i]) return false;
  const [p, q] = [was[k]!, now[k]!];
  if (p === q || /^\d/.test(p)) return q.startsWith(p);
  return q.startsWith(p) && (p.length >= 5 || q.length <= 2);
}

/**
 * Fuzzy matcher over a prebuilt haystack. uFuzzy filters 50,000 strings in a few milliseconds,
 * typo-tolerant within terms and across term order. A query in plain ASCII is matched against the
 * text without accents ("garcia" finds García, "novakova" Nováková); any other (Cyrillic, Greek,
 * Arabic, Devanagari, CJK, or accents typed) goes through uFuzzy's Unicode mode over the text as it
 * is: with Latin-only matching, a Russian user found none of the Russian command names.
 */
export class PaletteMatcher<T> {
  private readonly latin = new uFuzzy(OPTIONS);
  private readonly universal = new uFuzzy({ ...OPTIONS, ...UNIVERSAL });
  private readonly haystack: string[];
  private readonly plain: string[];
  private readonly lowered: Map<string[], Array<string | undefined>>;

  private readonly outOfOrderMaxTerms: number;
  /**
   * Recent needles' hits, newest first, shared with the matchers built later over the same texts.
   * A needle tests only the hits of the smallest earlier needle it narrows: not just the previous
   * keystroke's, because one keystroke searches twice ("call le" and the verb's "le") and the two
   * searches evicted each other's hits, and a term that grows past 2 letters ("martin gar") narrows
   * from the needle before that term ("martin") though not from "martin ga".
   */
  private readonly recent: Hits[];

  constructor(
    readonly entries: readonly IndexEntry<T>[],
    opts: { outOfOrderMaxTerms?: number; like?: PaletteMatcher<unknown> | null } = {},
  ) {
    this.outOfOrderMaxTerms = opts.outOfOrderMaxTerms ?? 3;
    const like = opts.like;
    if (like && like.haystack.length === entries.length && entries.every((e, i) => e.text === like.haystack[i])) {
      // The same texts as an earlier matcher's (the palette opened again over the same 50,000
      // contacts): its prepared haystacks serve, without latinising and lower-casing them again.
      this.haystack = like.haystack;
      this.plain = like.plain;
      this.lowered = like.lowered;
      this.recent = like.recent;
    } else {
      this.haystack = entries.map((e) => e.text);
      this.plain = uFuzzy.latinize(this.haystack);
      this.lowered = new Map();
      this.recent = [];
    }
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Lower-cased haystack for the cheap ranking of many hits, each text lower-cased when a ranking
   * first reads it: all 50,000 at once made the first keystroke of an opening take a frame or more.
   */
  private lower(hay: string[]): Array<string | undefined> {
    let l = this.lowered.get(hay);
    if (!l) this.lowered.set(hay, (l = new Array<string | undefined>(hay.length)));
    return l;
  }

  /** Entries best first; at most `limit`. */
  search(query: string, limit = 500): T[] {
    const needle = query.trim();
    if (!needle) return this.entries.slice(0, limit).map((e) => e.ref);
    const ascii = ASCII.test(needle);
    const uf = ascii ? this.latin : this.universal;
    const hay = ascii ? this.plain : this.haystack;
    const same = this.recent.find((h) => h.hay === hay && h.needle === needle);
    let idxs = same ? same.idxs : uf.filter(hay, needle, this.narrowest(hay, needle, (h) => h.idxs)?.idxs);
    const hits: Hits | null = same ?? (idxs ? { hay, needle, idxs } : null);
    if (hits) this.remember(hits);
    if (!idxs || idxs.length === 0) {
      const terms = needle.split(/\s+/).length;
      if (terms < 2 || terms > this.outOfOrderMaxTerms) return [];
      // Terms out of order ("history missed") as a second chance; its ranking comes with it, because
      // info() for the in-order needle cannot describe out-of-order hits. Each term narrows as in
      // order does, so an earlier needle's any-order hits hold all of this one's; so do the hits
      // of a one-term needle that one of this needle's terms narrows ("call" for "call le": a
      // text holding the terms in any order holds "call").
      const anyOrder = this.narrowest(hay, needle, (h) => h.anyOrder)?.idxs ?? this.narrowestTerm(hay, needle);
      const [outIdxs, outInfo, outOrder] = uf.search(hay, needle, 1, RANK_LIMIT, anyOrder);
      if (hits) hits.anyOrder = outIdxs ? [...outIdxs].sort((a, b) => a - b) : [];
      if (!outIdxs || outIdxs.length === 0) return [];
      if (outInfo && outOrder) return this.ranked(outInfo.idx, outOrder, limit);
      idxs = outIdxs;
    } else if (idxs.length <= RANK_LIMIT) {
      const info = uf.info(idxs, hay, needle);
      return this.ranked(info.idx, uf.sort(info, hay, needle), limit);
    }
    // Many hits (a one-letter query over 50,000 contacts): prefix matches first, then the rest in index order.
    const q = needle.toLocaleLowerCase();
    const lower = this.lower(hay);
    const prefix: T[] = [];
    const wordPrefix: T[] = [];
    const rest: T[] = [];
    for (const i of idxs) {
      const h = lower[i] ?? (lower[i] = hay[i]!.toLocaleLowerCase());
      const ref = this.entries[i]!.ref;
      if (h.startsWith(q)) prefix.push(ref);
      else if (h.includes(` ${q}`)) wordPrefix.push(ref);
      else if (rest.length < limit) rest.push(ref);
      if (prefix.length >= limit) break;
    }
    return [...prefix, ...wordPrefix, ...rest].slice(0, limit);
  }

  /** The smallest `pick` of the remembered needles that `needle` narrows (see narrows). */
  private narrowest(hay: string[], needle: string, pick: (h: Hits) => number[] | undefined): { idxs: number[] } | null {
    let best: number[] | undefined;
    for (const h of this.recent) {
      const idxs = pick(h);
      if (idxs && h.hay === hay && (!best || idxs.length < best.length) && narrows(h.needle, needle)) best = idxs;
    }
    return best ? { idxs: best } : null;
  }

  /** The smallest hits of a remembered one-term needle that one of `needle`'s terms narrows. */
  private narrowestTerm(hay: string[], needle: string): number[] | undefined {
    const terms = needle.split(/\s+/);
    let best: number[] | undefined;
    for (const h of this.recent) {
      if (h.hay !== hay || /\s/.test(h.needle) || (best && h.idxs.length >= best.length)) continue;
      if (terms.some((t) => narrows(h.needle, t))) best = h.idxs;
    }
    return best;
  }

  /**
   * Newest first; one-letter needles stay (at most one per letter or digit): every opening's first
   * keystroke is one, and it is the costliest, its hits being most of the texts.
   */
  private remember(hits: Hits): void {
    const at = this.recent.indexOf(hits);
    if (at >= 0) this.recent.splice(at, 1);
    this.recent.unshift(hits);
    let longer = 0;
    for (let i = 0; i < this.recent.length; i++) {
      if (this.recent[i]!.needle.length > 1 && ++longer > RECENT_NEEDLES) this.recent.splice(i--, 1);
    }
  }

  private ranked(idx: readonly number[], order: readonly number[], limit: number): T[] {
    const out: T[] = [];
    for (let i = 0; i < order.length && out.length < limit; i++) out.push(this.entries[idx[order[i]!]!]!.ref);
    return out;
  }
}
