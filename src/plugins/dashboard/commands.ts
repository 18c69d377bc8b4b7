import { defineCommands, Navigation, type CommandRow, type WhenFn } from '../../kernel';
import { DASHBOARD_PATH } from './state';

const onScreen: WhenFn = (ctx) => ctx.route.startsWith(DASHBOARD_PATH);

/*
 * "Go to dashboard" sits with the other `g` navigations ("g d"). "Join a meeting" opens the join
 * popup over the dashboard; its Shift+I is the meetings screen's "Join by ID" key, so the same key
 * does the same thing on both screens. Palette words and enablement are in the later part (`later.ts`).
 */
export const dashboardTable = {
  go: { keys: 'g d', run: (ctx) => ctx.services.get(Navigation).navigate(DASHBOARD_PATH) },
  joinMeeting: {
    keys: 'Shift+I',
    scope: 'screen',
    // Elsewhere the palette has meetings' own "Join by ID" (the same popup, on the meetings screen).
    listed: 'screen',
  },
} as const satisfies Record<string, CommandRow>;

export const dashboardCommands = defineCommands('dashboard', dashboardTable, {
  screen: onScreen,
  lazy: () => import('./lazy').then((m) => m.runs),
});
