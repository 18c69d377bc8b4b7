import { createLogger } from '../../kernel';

/** This plugin's log: every line starts with "wizard:", as its ctx.log (activate, commands) does. */
export const log = createLogger('wizard');
