import { defineCommands, type CommandRow } from '../../kernel';

// Palette words are in the later part (`later.ts`).
export const tutorialTable = {
  /** The tour again, from its first step (it also starts by itself after the first sign-in). */
  show: {},
} as const satisfies Record<string, CommandRow>;

export const tutorialCommands = defineCommands('tutorial', tutorialTable, {
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});
