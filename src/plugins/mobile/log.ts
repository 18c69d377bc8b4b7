import { createLogger } from '../../kernel';

/** This plugin's log: every line starts with "mobile:", as its ctx.log (activate, commands) does. */
export const log = createLogger('mobile');
