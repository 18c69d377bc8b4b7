import type { $iq, Strophe } from 'strophe.js';
import type { ConnectionReporter, Notifier, ApiClient } from '../../../kernel';
import type { ChatFileProblem } from '../model/media';
import type { Clock } from '../model/presence';

export type Conn = InstanceType<typeof Strophe.Connection>;
export type Builder = ReturnType<typeof $iq>;

/** What the chat engine is given from outside; each of its parts takes only the fields it uses. */
export interface ChatEngineDeps {
  api: Pick<ApiClient, 'get' | 'post' | 'put' | 'delete'>;
  /** Host of the group-chat rooms (`conference.<domain>`). */
  mucDomain: string;
  connections: ConnectionReporter;
  notify: Notifier;
  t(key: string, values?: Record<string, unknown>): string;
  userId: number;
  pingIntervalMs: number;
  pingTimeoutMs: number;
  historyPageSize: number;
  clock?: Clock;
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** The tab's own storage: messages waiting for the server and drafts outlive a reload, not the tab. */
  sessionStorage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  createConnection?(url: string): Conn;
  /** The PUT of an upload (tests). */
  fetch?: typeof fetch;
  /** A message in a conversation that is not on screen (or the tab is hidden) and not muted: announce, notify, chime. */
  announceNew?(from: string, body: string, jid: string): void;
  /** Counts a message sent (usage analytics: never to whom or what). */
  sent?(): void;
  /** A headline the API sent from the chat domain with a subject of its own (maintenance, a new voicemail). */
  serverPush?(subject: string, body: string): void;
}

/** A file that was not sent, and why (each has a message for the user). */
export class MediaError extends Error {
  constructor(readonly problem: ChatFileProblem | 'offline' | 'uploadFailed') {
    super(`media ${problem}`);
  }
}

/** An IQ answered with an error (its defined condition) or never answered (`timeout`). */
export class IqError extends Error {
  constructor(readonly condition: string) {
    super(`iq ${condition}`);
  }
}

/** Whether the user can see the page (a hidden tab's open conversation is not being read). */
export function isVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState === 'visible';
}

/** Archive ids: numeric strings compare as numbers, anything else as text. */
export function compareIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  return a < b ? -1 : a > b ? 1 : 0;
}
