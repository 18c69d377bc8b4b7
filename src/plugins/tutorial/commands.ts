import { defineCommands, type CommandRow } from '../../kernel';

export const tutorialTable = {
  /** The tour again, from its first step (it also starts by itself after the first sign-in). */
  show: { keywords: ['tutorial', 'tour', 'getting started', 'introduction', 'help'] },
} as const satisfies Record<string, CommandRow>;

export const tutorialCommands = defineCommands('tutorial', tutorialTable, {
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});
