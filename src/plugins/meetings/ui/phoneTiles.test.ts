import { describe, expect, it } from 'vitest';
import { phonesOfTiles } from './phoneTiles';

describe('phonesOfTiles', () => {
  const phone = (id: number, number: string, muted = false) => ({ id, number, muted, talking: false });

  it('pairs each phone tile with the bridge phone of its number, each phone once (the same number twice: in order)', () => {
    const tiles = [
      { feed: 1, kind: 'camera', name: '1003' },
      { feed: 2, kind: 'phone', name: '1003' },
      { feed: 3, kind: 'phone', name: '1003' },
      { feed: 4, kind: 'phone', name: '5550142' },
    ];
    const paired = phonesOfTiles(tiles, [phone(10, '5550142', true), phone(11, '1003'), phone(12, '1003')]);
    expect([...paired]).toEqual([
      [2, phone(11, '1003')],
      [3, phone(12, '1003')],
      [4, phone(10, '5550142', true)],
    ]);
  });

  it('a tile whose phone the bridge does not list (yet) has none', () => {
    expect(phonesOfTiles([{ feed: 2, kind: 'phone', name: '1003' }], []).size).toBe(0);
  });
});
