/**
 * A plugin's log: every line names the plugin it comes from, so a console shared by every plugin
 * (and a bug report pasted from it) says whose work failed. Plugins get one as `ctx.log`; commands
 * as `ctx.log` of their command context.
 */
export interface Logger {
  error(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
}

export function createLogger(scope: string): Logger {
  return {
    error: (message, ...details) => console.error(`${scope}: ${message}`, ...details),
    warn: (message, ...details) => console.warn(`${scope}: ${message}`, ...details),
    info: (message, ...details) => console.info(`${scope}: ${message}`, ...details),
  };
}

/**
 * Thrown by a command that has already told the user what went wrong (its own toast with the
 * product's wording for that failure): the kernel logs it and shows nothing more. Anything else a
 * command throws gets the kernel's one generic failure notice.
 */
export class ReportedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ReportedError';
  }
}
