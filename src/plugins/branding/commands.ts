import { defineCommands, type CommandRow, type Enablement, type WhenFn } from '../../kernel';
import { brandingState } from './state';

/** The configuration's logoAdmin: account owners and administrators. */
const admin: WhenFn = (ctx) => ctx.features.logoAdmin;
const mayRemove = (): Enablement => (brandingState.logoUrl ? true : { reasonKey: 'branding:reasons.noLogo' });

export const brandingTable = {
  /** The dialog to choose, check and upload the organisation's logo (only logo admins see it). */
  upload: { keywords: ['logo', 'branding', 'company', 'image', 'picture'], when: admin },
  remove: { keywords: ['logo', 'branding', 'delete'], when: admin, enabled: mayRemove },
} as const satisfies Record<string, CommandRow>;

export const brandingCommands = defineCommands('branding', brandingTable, {
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});
