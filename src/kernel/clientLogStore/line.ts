import type { LogEntry, LogLevel } from '../log';
import { safeText, serialiseDetails } from './serialise';

/** A line as kept: already redacted and serialised, with its size in the file (UTF-8 bytes). */
export interface StoredLine {
  time: number;
  level: LogLevel;
  scope: string;
  message: string;
  details: string;
  size: number;
}

/** Past this a line's details are cut (the rest of the log matters more than one payload). */
const MAX_DETAILS = 32_000;

const encoder = new TextEncoder();

// One entry, one line of the file: newlines inside a message are written as "\n".
const oneLine = (text: string) => text.replace(/\r\n|\r|\n/g, '\\n');

export function toStoredLine(entry: LogEntry): StoredLine {
  const details = serialiseDetails(entry.details);
  const line: StoredLine = {
    time: entry.time,
    level: entry.level,
    scope: oneLine(safeText(String(entry.scope), 100)),
    message: oneLine(safeText(String(entry.message))),
    details: details.length > MAX_DETAILS ? `${details.slice(0, MAX_DETAILS)}…[cut]` : details,
    size: 0,
  };
  line.size = encoder.encode(formatLine(line)).length + 1;
  return line;
}

/** `2026-11-27T14:39:25.123Z WARNING telephony registration failed {"name":"Error",…}` */
export function formatLine(line: StoredLine): string {
  const head = `${new Date(line.time).toISOString()} ${line.level.toUpperCase().padEnd(7)} ${line.scope} ${line.message}`;
  return line.details ? `${head} ${line.details}` : head;
}

/** The download's name, by the user's own calendar day. */
export function logFileName(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `uc-client-log-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.txt`;
}
