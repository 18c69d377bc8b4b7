import path from 'node:path';
import { serviceDirs } from './layout';

/**
 * How the voicemail phone (server/services/voicemail.ts) knows what a call is for: baresip answers
 * a call with the account whose user is the request-URI's user, so Kamailio says it there. A
 * mailbox's own number (`1002`) takes a message; `greeting-1002` only plays that box's greeting and
 * hangs up (the `repeat_greeting` destination): its account plays a file that ends after the
 * greeting, and no message is filed for it (server/voicemail/deposit.ts follows mailbox accounts only).
 * `announce-1002` is find-me's announcer for that user: it answers 183 Session Progress with SDP and
 * never answers further, so the caller has early media while the hunt rings; rtpengine plays the
 * announcement into it (Kamailio's play_media), since baresip 1.0 sends no audio before answering.
 */

/** What Kamailio puts before the mailbox in the request-URI for a greeting-only call. */
export const GREETING_ONLY_PREFIX = 'greeting-';

export const greetingOnlyUser = (mailbox: string): string => `${GREETING_ONLY_PREFIX}${mailbox}`;

/** What a voicemail-phone account user is for: a mailbox taking a message, or a greeting alone; null: neither. */
export function voicemailAccount(user: string | null): { mailbox: string; greetingOnly: boolean } | null {
  const m = /^(greeting-)?([0-9]{1,5})$/.exec(user ?? '');
  return m ? { mailbox: m[2]!, greetingOnly: m[1] !== undefined } : null;
}

/** What Kamailio puts before the callee in the request-URI of find-me's announcer branch. */
export const ANNOUNCER_PREFIX = 'announce-';

export const announcerUser = (extension: string): string => `${ANNOUNCER_PREFIX}${extension}`;

/**
 * Find-me's announcements, where rtpengine reads them: "please hold while we locate…" for everyone
 * (made when the voicemail phone starts), and per user their recorded name before it.
 */
export const announceFiles = (cfg: { runtimeDir: string }) => {
  const conf = serviceDirs(cfg.runtimeDir, 'voicemail').conf;
  return { hold: path.join(conf, 'announce-hold.wav'), dir: path.join(conf, 'announce'), named: (extension: string) => path.join(conf, 'announce', `name-${extension}.wav`) };
};
