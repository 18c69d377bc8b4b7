import { createLogger } from '../../kernel';

/** This plugin's log: every line starts with "voicemail:", as its ctx.log (activate, commands) does. */
export const log = createLogger('voicemail');
