import { createLogger } from '../../kernel';

/** This plugin's log: every line starts with "tutorial:", as its ctx.log (activate, commands) does. */
export const log = createLogger('tutorial');
