/** The emoji picker's rules, apart from any screen: groups, recent emoji, search, insertion at the caret. */

/** The picker's only groups, in its order; Unicode's other groups (flags, objects…) are not offered. */
export const EMOJI_GROUPS = ['smiles', 'people', 'nature', 'food', 'travel'] as const;
export type EmojiGroup = (typeof EMOJI_GROUPS)[number];

export interface Emoji {
  char: string;
  /** Unicode's (English) short name: the option's accessible name and what search matches. */
  name: string;
  group: EmojiGroup;
}

/** Which of Unicode's groups (as unicode-emoji-json names them) fills each picker group. */
const UNICODE_GROUPS: Record<string, EmojiGroup> = {
  smileys_emotion: 'smiles',
  people_body: 'people',
  animals_nature: 'nature',
  food_drink: 'food',
  travel_places: 'travel',
};

/** unicode-emoji-json's data-by-group.json, as far as the picker reads it. */
export type UnicodeEmojiGroups = ReadonlyArray<{ slug: string; emojis: ReadonlyArray<{ emoji: string; name: string }> }>;

export interface EmojiData {
  groups: Record<EmojiGroup, Emoji[]>;
  all: Emoji[];
  byChar: Map<string, Emoji>;
}

/** The five groups out of Unicode's nine (no activities, objects, symbols or flags). */
export function emojiData(source: UnicodeEmojiGroups): EmojiData {
  const groups = Object.fromEntries(EMOJI_GROUPS.map((g) => [g, [] as Emoji[]])) as Record<EmojiGroup, Emoji[]>;
  for (const g of source) {
    const group = UNICODE_GROUPS[g.slug];
    if (!group) continue;
    for (const e of g.emojis) groups[group].push({ char: e.emoji, name: e.name, group });
  }
  const all = EMOJI_GROUPS.flatMap((g) => groups[g]);
  return { groups, all, byChar: new Map(all.map((e) => [e.char, e])) };
}

/** Emoji whose name has every word of the search at the start of one of its words ("thu up" finds 👍). */
export function searchEmoji(all: readonly Emoji[], term: string, max = 120): Emoji[] {
  const words = term.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const out: Emoji[] = [];
  for (const e of all) {
    const parts = e.name.toLowerCase().split(/[\s:,-]+/);
    if (words.every((w) => parts.some((p) => p.startsWith(w)))) {
      out.push(e);
      if (out.length >= max) break;
    }
  }
  return out;
}

/** localStorage key of the recent emoji (specification). */
export const RECENT_EMOJIS_KEY = 'recent-emojis';
/** About this many are kept (specification: "recent ~80"). */
export const RECENT_EMOJIS_MAX = 80;

type Store = Pick<Storage, 'getItem' | 'setItem'> | null | undefined;

const browserStorage = (): Store => (typeof localStorage === 'undefined' ? null : localStorage);

/** Newest first; anything unreadable counts as none. */
export function readRecent(storage: Store = browserStorage()): string[] {
  try {
    const v: unknown = JSON.parse(storage?.getItem(RECENT_EMOJIS_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length > 0).slice(0, RECENT_EMOJIS_MAX) : [];
  } catch {
    return [];
  }
}

/** The list after using `char`: it moves to the front once, the oldest fall off past the limit. */
export function withRecent(list: readonly string[], char: string): string[] {
  return [char, ...list.filter((c) => c !== char)].slice(0, RECENT_EMOJIS_MAX);
}

/** Remembers an emoji just used; returns the new list. */
export function rememberEmoji(char: string, storage: Store = browserStorage()): string[] {
  const next = withRecent(readRecent(storage), char);
  try {
    storage?.setItem(RECENT_EMOJIS_KEY, JSON.stringify(next));
  } catch {
    /* storage full or off: the list lasts for this page */
  }
  return next;
}

/** `text` replacing the selection start…end of `value`; the caret goes right after it. */
export function insertAtCaret(value: string, start: number, end: number, text: string): { value: string; caret: number } {
  const a = Math.max(0, Math.min(start, value.length));
  const b = Math.max(a, Math.min(end, value.length));
  return { value: value.slice(0, a) + text + value.slice(b), caret: a + text.length };
}
