import { createLogger } from '../../kernel';

/** This plugin's log: every line starts with "dashboard:", as its ctx.log (activate, commands) does. */
export const log = createLogger('dashboard');
