import uFuzzy from '@leeoniya/ufuzzy';

export interface IndexEntry<T> {
  /** What is matched: label plus keywords. */
  text: string;
  ref: T;
}

/** Above this many hits, ranking (uFuzzy's info+sort) costs more than it is worth; we rank cheaply. */
const RANK_LIMIT = 2000;

/**
 * Fuzzy matcher over a prebuilt haystack. uFuzzy filters 50,000 strings in a few milliseconds,
 * typo-tolerant within terms and across term order.
 */
export class PaletteMatcher<T> {
  private readonly uf = new uFuzzy({ intraMode: 1, intraIns: 1, interIns: Infinity });
  private readonly haystack: string[];
  private readonly lower: string[];

  private readonly outOfOrderMaxTerms: number;

  constructor(
    readonly entries: readonly IndexEntry<T>[],
    opts: { outOfOrderMaxTerms?: number } = {},
  ) {
    this.outOfOrderMaxTerms = opts.outOfOrderMaxTerms ?? 3;
    this.haystack = entries.map((e) => e.text);
    this.lower = this.haystack.map((h) => h.toLocaleLowerCase());
  }

  get size(): number {
    return this.entries.length;
  }

  /** Entries best first; at most `limit`. */
  search(query: string, limit = 500): T[] {
    const needle = query.trim();
    if (!needle) return this.entries.slice(0, limit).map((e) => e.ref);
    let idxs = this.uf.filter(this.haystack, needle);
    if (!idxs || idxs.length === 0) {
      const terms = needle.split(/\s+/).length;
      if (terms < 2 || terms > this.outOfOrderMaxTerms) return [];
      // Terms out of order ("history missed") as a second chance; its ranking comes with it, because
      // info() for the in-order needle cannot describe out-of-order hits.
      const [outIdxs, outInfo, outOrder] = this.uf.search(this.haystack, needle, 1, RANK_LIMIT);
      if (!outIdxs || outIdxs.length === 0) return [];
      if (outInfo && outOrder) return this.ranked(outInfo.idx, outOrder, limit);
      idxs = outIdxs;
    } else if (idxs.length <= RANK_LIMIT) {
      const info = this.uf.info(idxs, this.haystack, needle);
      return this.ranked(info.idx, this.uf.sort(info, this.haystack, needle), limit);
    }
    // Many hits (a one-letter query over 50,000 contacts): prefix matches first, then the rest in index order.
    const q = needle.toLocaleLowerCase();
    const prefix: T[] = [];
    const wordPrefix: T[] = [];
    const rest: T[] = [];
    for (const i of idxs) {
      const h = this.lower[i]!;
      const ref = this.entries[i]!.ref;
      if (h.startsWith(q)) prefix.push(ref);
      else if (h.includes(` ${q}`)) wordPrefix.push(ref);
      else if (rest.length < limit) rest.push(ref);
      if (prefix.length >= limit) break;
    }
    return [...prefix, ...wordPrefix, ...rest].slice(0, limit);
  }

  private ranked(idx: readonly number[], order: readonly number[], limit: number): T[] {
    const out: T[] = [];
    for (let i = 0; i < order.length && out.length < limit; i++) out.push(this.entries[idx[order[i]!]!]!.ref);
    return out;
  }
}
