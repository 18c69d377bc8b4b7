import { defineCommands, Navigation, type CommandRow, type WhenFn } from '../../kernel';
import { MOBILE_PATH } from './state';

const onScreen: WhenFn = (ctx) => ctx.route.startsWith(MOBILE_PATH);

export const mobileTable = {
  go: { keywords: ['mobile', 'app', 'phone', 'download', 'qr', 'sign in'], run: (ctx) => ctx.services.get(Navigation).navigate(MOBILE_PATH) },
  /** A new code at once (the page renews it by itself before it expires). */
  newCode: { keywords: ['qr', 'code', 'refresh', 'mobile'], when: onScreen },
} as const satisfies Record<string, CommandRow>;

export const mobileCommands = defineCommands('mobile', mobileTable, {
  screen: onScreen,
  lazy: () => import('./lazy').then(async (m) => (await m.strings(), m.runs)),
});
