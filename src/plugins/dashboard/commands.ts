import { defineCommands, Navigation, type CommandRow, type WhenFn } from '../../kernel';
import { JoinMeetingDialog } from '../../contracts';
import { DASHBOARD_PATH } from './state';

const onScreen: WhenFn = (ctx) => ctx.route.startsWith(DASHBOARD_PATH);

/*
 * "Go to dashboard" sits with the other `g` navigations ("g d"). "Join a meeting" opens the join
 * popup over the dashboard; its Shift+I is the meetings screen's "Join by ID" key, so the same key
 * does the same thing on both screens.
 */
export const dashboardTable = {
  go: { keys: 'g d', keywords: ['home', 'dashboard', 'start', 'overview'], run: (ctx) => ctx.services.get(Navigation).navigate(DASHBOARD_PATH) },
  joinMeeting: {
    keys: 'Shift+I',
    scope: 'screen',
    // Elsewhere the palette has meetings' own "Join by ID" (the same popup, on the meetings screen).
    listed: 'screen',
    keywords: ['meeting id', 'pin', 'join'],
    enabled: (ctx) => (ctx.services.has(JoinMeetingDialog) ? true : { reasonKey: 'dashboard:reasons.noMeetings' }),
  },
} as const satisfies Record<string, CommandRow>;

export const dashboardCommands = defineCommands('dashboard', dashboardTable, {
  screen: onScreen,
  lazy: () => import('./lazy').then((m) => m.runs),
});
