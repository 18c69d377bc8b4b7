import type { MeetingPhones } from '../../../wire/meetings';

type Phone = MeetingPhones['phones'][number];

/**
 * Which phone of the bridge each phone tile is: a tile's feed is named by its phone's number only
 * (the bridge's id is not in the videoroom), so tiles and phones are paired by number, in order
 * when the same number dialled in twice. A tile whose phone is not listed (yet) has none.
 */
export function phonesOfTiles(tiles: { feed: number; kind: string; name: string }[], phones: Phone[]): Map<number, Phone> {
  const left = [...phones];
  const paired = new Map<number, Phone>();
  for (const t of tiles) {
    if (t.kind !== 'phone') continue;
    const i = left.findIndex((p) => p.number === t.name);
    if (i === -1) continue;
    paired.set(t.feed, left[i]!);
    left.splice(i, 1);
  }
  return paired;
}
