/**
 * Reads a GET's body off the main thread (see `offThreadText.ts`). Chromium reads a fetch's body
 * on the thread that asked for it: 4.5 MB held the page's main thread for 100–300 ms at a time.
 * Handing the finished text over in one message cost the page another 40–60 ms (the string is
 * copied when the page reads it), so a successful body crosses in parts of whole lines, each
 * received in a millisecond or two.
 */
import { wholeLineParts } from './textParts';

export interface TextFetchRequest {
  id: number;
  url?: string;
  headers?: Record<string, string>;
  /** Stop the request `id`. */
  abort?: true;
}
export type TextFetchReply =
  | { id: number; part: string }
  /** After the parts of a 2xx body; a body of any other status comes whole (an error's JSON). */
  | { id: number; status: number; body?: string }
  | { id: number; failed: string };

const inFlight = new Map<number, AbortController>();

async function answer(m: TextFetchRequest): Promise<void> {
  const controller = new AbortController();
  inFlight.set(m.id, controller);
  try {
    const res = await fetch(m.url!, { headers: m.headers, credentials: 'same-origin', signal: controller.signal });
    const text = await res.text();
    if (!res.ok) return self.postMessage({ id: m.id, status: res.status, body: text } satisfies TextFetchReply);
    for (const part of wholeLineParts(text)) self.postMessage({ id: m.id, part } satisfies TextFetchReply);
    self.postMessage({ id: m.id, status: res.status } satisfies TextFetchReply);
  } catch (err) {
    self.postMessage({ id: m.id, failed: err instanceof Error ? err.message : String(err) } satisfies TextFetchReply);
  } finally {
    inFlight.delete(m.id);
  }
}

self.onmessage = (e: MessageEvent<TextFetchRequest>) => {
  if (e.data.abort) inFlight.get(e.data.id)?.abort();
  else void answer(e.data);
};
