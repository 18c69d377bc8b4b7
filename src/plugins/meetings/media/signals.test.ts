import { describe, expect, it } from 'vitest';
import { activeSpeaker, displayFor, readDisplay, readSignal, writeSignal, CHAT_MAX } from './signals';

describe("a feed's display", () => {
  it('carries the name, the user and the kind through Janus and back, whatever the name holds', () => {
    const who = { name: 'Zoë "Z" <O\'Neil>', userId: 42, kind: 'screen' as const };
    expect(readDisplay(displayFor(who))).toEqual(who);
  });

  it("reads another client's plain display as the name of a camera feed", () => {
    expect(readDisplay('Desk phone 1001')).toEqual({ name: 'Desk phone 1001', userId: null, kind: 'camera' });
    expect(readDisplay(undefined)).toEqual({ name: '', userId: null, kind: 'camera' });
    expect(readDisplay('{"n":"x","u":1.5}')).toEqual({ name: 'x', userId: null, kind: 'camera' });
  });
});

describe('data-channel signals', () => {
  it('reads back what is written', () => {
    const state = { t: 'state', muted: true, camera: false, hand: true } as const;
    expect(readSignal(writeSignal(state))).toEqual(state);
    expect(readSignal(writeSignal({ t: 'chat', id: 'abc', text: 'hello' }))).toEqual({ t: 'chat', id: 'abc', text: 'hello' });
  });

  it('drops what a peer should not send: malformed, blank, too long, unknown', () => {
    expect(readSignal('not json')).toBeNull();
    expect(readSignal(JSON.stringify({ t: 'state', muted: 'yes', camera: true, hand: false }))).toBeNull();
    expect(readSignal(JSON.stringify({ t: 'chat', id: 'a', text: '   ' }))).toBeNull();
    expect(readSignal(JSON.stringify({ t: 'chat', id: 'a', text: 'x'.repeat(CHAT_MAX + 1) }))).toBeNull();
    expect(readSignal(JSON.stringify({ t: 'kick' }))).toBeNull();
    expect(readSignal(new ArrayBuffer(4))).toBeNull();
  });
});

describe('the active speaker', () => {
  const feed = (id: number, talking = false, spokeAt = 0, kind: 'camera' | 'screen' = 'camera') => ({ feed: id, talking, spokeAt, kind });
  it('is who speaks now, else who spoke last, else nobody', () => {
    expect(activeSpeaker([feed(1), feed(2, true, 5), feed(3, false, 9)])).toBe(2);
    expect(activeSpeaker([feed(1, false, 3), feed(2, false, 7)])).toBe(2);
    expect(activeSpeaker([feed(1), feed(2)])).toBeNull();
  });
  it('gives way to a shared screen', () => {
    expect(activeSpeaker([feed(1, true, 5), feed(4, false, 0, 'screen')])).toBe(4);
  });
});
