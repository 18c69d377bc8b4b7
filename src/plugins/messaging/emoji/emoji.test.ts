import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { EMOJI_GROUPS, emojiData, insertAtCaret, readRecent, RECENT_EMOJIS_KEY, RECENT_EMOJIS_MAX, rememberEmoji, searchEmoji, withRecent, type UnicodeEmojiGroups } from './emoji';

const source = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('unicode-emoji-json/data-by-group.json'), 'utf8')) as UnicodeEmojiGroups;

function memoryStorage(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), dump: () => Object.fromEntries(m) };
}

describe('emoji data', () => {
  it('has the five groups smiles, people, nature, food, travel, from the library, in order, and nothing else', () => {
    const d = emojiData(source);
    expect(EMOJI_GROUPS).toEqual(['smiles', 'people', 'nature', 'food', 'travel']);
    for (const g of EMOJI_GROUPS) expect(d.groups[g].length).toBeGreaterThan(50);
    expect(d.groups.smiles[0]).toEqual({ char: '😀', name: 'grinning face', group: 'smiles' });
    expect(d.byChar.get('🍕')?.group).toBe('food');
    expect(d.byChar.get('🚀')?.group).toBe('travel');
    expect(d.byChar.get('🐶')?.group).toBe('nature');
    // Flags, objects and symbols are left out: the picker offers only those five groups.
    expect(d.byChar.has('⚽')).toBe(false);
    expect(d.all.length).toBe(EMOJI_GROUPS.reduce((n, g) => n + d.groups[g].length, 0));
  });

  it('searches by the start of the words of the name', () => {
    const d = emojiData(source);
    expect(searchEmoji(d.all, 'rocket').map((e) => e.char)).toEqual(['🚀']);
    expect(searchEmoji(d.all, 'thumbs up').map((e) => e.char)).toContain('👍');
    expect(searchEmoji(d.all, 'GRINNING face').map((e) => e.char)).toContain('😀');
    expect(searchEmoji(d.all, '   ')).toEqual([]);
    expect(searchEmoji(d.all, 'face', 5)).toHaveLength(5);
  });
});

describe('recent emoji', () => {
  it('are kept newest first, once each, about 80, under recent-emojis', () => {
    expect(RECENT_EMOJIS_KEY).toBe('recent-emojis');
    expect(withRecent(['😀', '🚀'], '🚀')).toEqual(['🚀', '😀']);
    const many = Array.from({ length: RECENT_EMOJIS_MAX }, (_, i) => String.fromCodePoint(0x1f600 + i));
    const next = withRecent(many, '🍕');
    expect(next).toHaveLength(80);
    expect(next[0]).toBe('🍕');
    expect(next).not.toContain(many.at(-1));
    const store = memoryStorage();
    rememberEmoji('😀', store);
    rememberEmoji('🚀', store);
    expect(store.dump()).toEqual({ 'recent-emojis': JSON.stringify(['🚀', '😀']) });
    expect(readRecent(store)).toEqual(['🚀', '😀']);
  });

  it('read nothing from missing or damaged storage', () => {
    expect(readRecent(memoryStorage())).toEqual([]);
    expect(readRecent(memoryStorage({ 'recent-emojis': '{nope' }))).toEqual([]);
    expect(readRecent(memoryStorage({ 'recent-emojis': '[1,"😀",""]' }))).toEqual(['😀']);
    expect(readRecent(null)).toEqual([]);
  });
});

describe('insertion at the caret', () => {
  it('replaces the selection and puts the caret after the emoji', () => {
    expect(insertAtCaret('hello world', 5, 5, '👋')).toEqual({ value: 'hello👋 world', caret: 7 });
    expect(insertAtCaret('hello world', 6, 11, '🌍')).toEqual({ value: 'hello 🌍', caret: 8 });
    expect(insertAtCaret('', 0, 0, '😀')).toEqual({ value: '😀', caret: 2 });
    expect(insertAtCaret('ab', 9, 9, '!')).toEqual({ value: 'ab!', caret: 3 });
  });
});
