/*
 * Its own module: the recent-messages service (boot) needs the preview, and chat.ts would bring the
 * rest of the chat rules into the first screen.
 */
import type { ChatMedia } from './media';

type Previewed = { body: string; media?: ChatMedia | null };

/** The words of a message to show: none when it only carries a file (its body is the file's URL). */
export function visibleBody(m: Previewed): string {
  return m.media && m.body.trim() === m.media.url ? '' : m.body;
}

/** One line about a message, for the conversations list and announcements: its words, or the file's name. */
export function messagePreview(m: Previewed): string {
  return visibleBody(m) || (m.media ? m.media.ogName : '');
}
