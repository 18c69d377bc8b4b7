import { type PluginLater } from '../../kernel';
import { JoinMeetingDialog } from '../../contracts';
import { dashboardCommands } from './commands';

/* The later part (loaded after the first screen): the words the palette finds each command by, and whether the join popup can open. */
export const later: PluginLater = {
  commands: dashboardCommands.later({
    go: { keywords: ['home', 'dashboard', 'start', 'overview'] },
    joinMeeting: {
      keywords: ['meeting id', 'pin', 'join'],
      enabled: (ctx) => (ctx.services.has(JoinMeetingDialog) ? true : { reasonKey: 'dashboard:reasons.noMeetings' }),
    },
  }),
};
