import { LayoutDashboard } from 'lucide-react';
import { definePlugin } from '../../kernel';
import { dashboardCommands } from './commands';
import { DASHBOARD_PATH, HOME_PATH, resetDashboardState } from './state';

/*
 * The dashboard may be the user's home (preferences ▸ General ▸ Home page), so its strings are boot
 * strings (`locales/`, no chunk strings) and its screen is one small chunk: the feed's calls and
 * the clock paint without another round trip for text.
 */
/** Dashboard: clock, a group's first contacts, the join popup and a feed of voicemail, calls and messages. */
export const dashboardPlugin = definePlugin({
  id: 'dashboard',
  titleKey: 'dashboard:title',
  i18n: { namespace: 'dashboard' },
  routes: [
    { id: 'dashboard', path: DASHBOARD_PATH, titleKey: 'dashboard:title', component: () => import('./lazy').then((m) => ({ default: m.DashboardScreen })) },
    // The specification's `home`: wherever `/` leads (history until the user chooses another home).
    { id: 'dashboard.home', path: HOME_PATH, titleKey: 'dashboard:title', redirect: { to: '/' } },
  ],
  nav: [{ id: 'dashboard', titleKey: 'dashboard:nav', to: DASHBOARD_PATH, icon: LayoutDashboard, order: 5, command: dashboardCommands.ids.go }],
  commands: dashboardCommands.commands,
  hotkeys: dashboardCommands.hotkeys,
  later: () => import('./later').then((m) => m.later),
  activate() {
    return { dispose: resetDashboardState };
  },
});

export default dashboardPlugin;
