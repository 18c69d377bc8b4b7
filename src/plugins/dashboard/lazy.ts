import { Navigation, type LazyRuns } from '../../kernel';
import type { dashboardTable } from './commands';
import { dashboardState, DASHBOARD_PATH } from './state';

export { default as DashboardScreen } from './ui/DashboardScreen';

export const runs: LazyRuns<typeof dashboardTable> = {
  joinMeeting: (ctx) => {
    dashboardState.joinOpen = true;
    if (!location.pathname.startsWith(DASHBOARD_PATH)) ctx.services.get(Navigation).navigate(DASHBOARD_PATH);
  },
};
