/**
 * A plugin's log: every line names the plugin it comes from, so a console shared by every plugin
 * (and a bug report pasted from it) says whose work failed. Plugins get one as `ctx.log`; commands
 * as `ctx.log` of their command context. Every line also goes to the client log (the `LogStore`
 * core service, kept in IndexedDB by a chunk that loads after the first screen).
 */
export interface Logger {
  trace(message: string, ...details: unknown[]): void;
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
  /** The plugin cannot go on (its engine is gone for this page). */
  fatal(message: string, ...details: unknown[]): void;
}

/** The client log's levels, lowest first: a line below the chosen level is not kept. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warning', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One line as logged, before anything is serialised (that is the log chunk's work). */
export interface LogEntry {
  time: number;
  level: LogLevel;
  scope: string;
  message: string;
  details: readonly unknown[];
}

export interface LogSink {
  write(entry: LogEntry): void;
}

/** Lines logged before the log chunk is in: kept (oldest dropped past this) and handed to it. */
const EARLY_MAX = 500;
let early: LogEntry[] = [];
let sink: LogSink | null = null;

/**
 * Where lines go from now on; the lines logged so far are written to it first. Answers the undo.
 * Only the log chunk (and tests) attach one.
 */
export function attachLogSink(next: LogSink): () => void {
  sink = next;
  const waiting = early;
  early = [];
  for (const entry of waiting) write(next, entry);
  return () => {
    if (sink === next) sink = null;
  };
}

function write(to: LogSink, entry: LogEntry): void {
  // The caller is a plugin's error path: whatever the log does wrong must not become its failure.
  try {
    to.write(entry);
  } catch {
    // Nothing to tell: the line is on the console already.
  }
}

function record(level: LogLevel, scope: string, message: string, details: unknown[]): void {
  const entry: LogEntry = { time: Date.now(), level, scope, message, details };
  if (sink) write(sink, entry);
  else if (early.push(entry) > EARLY_MAX) early.shift();
}

export function createLogger(scope: string): Logger {
  return {
    trace: (message, ...details) => (console.debug(`${scope}: ${message}`, ...details), record('trace', scope, message, details)),
    debug: (message, ...details) => (console.debug(`${scope}: ${message}`, ...details), record('debug', scope, message, details)),
    info: (message, ...details) => (console.info(`${scope}: ${message}`, ...details), record('info', scope, message, details)),
    warn: (message, ...details) => (console.warn(`${scope}: ${message}`, ...details), record('warning', scope, message, details)),
    error: (message, ...details) => (console.error(`${scope}: ${message}`, ...details), record('error', scope, message, details)),
    fatal: (message, ...details) => (console.error(`${scope}: ${message}`, ...details), record('fatal', scope, message, details)),
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
