/**
 * How find-me rings its locations: one after another or all at once. Apart from ./inbound's zod
 * schemas so that the boot code (the palette's "Find-me ▸ Ring strategy") does not load zod.
 */
export const RING_STRATEGIES = ['sequential', 'simultaneous'] as const;
export type RingStrategy = (typeof RING_STRATEGIES)[number];
