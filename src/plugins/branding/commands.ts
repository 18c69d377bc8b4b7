import { defineCommands, type CommandRow, type WhenFn } from '../../kernel';

/** The configuration's logoAdmin: account owners and administrators. */
const admin: WhenFn = (ctx) => ctx.features.logoAdmin;

// Palette words and enablement are in the later part (`later.ts`).
export const brandingTable = {
  /** The dialog to choose, check and upload the organisation's logo (only logo admins see it). */
  upload: { when: admin },
  remove: { when: admin },
} as const satisfies Record<string, CommandRow>;

export const brandingCommands = defineCommands('branding', brandingTable, {
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});
