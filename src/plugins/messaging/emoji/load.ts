import dataUrl from 'unicode-emoji-json/data-by-group.json?url';
import { emojiData, type EmojiData, type UnicodeEmojiGroups } from './emoji';
import { log } from '../log';

/*
 * The emoji data (unicode-emoji-json, ~32 kB gzipped) is fetched as a file the first time the picker
 * opens: never with the boot bundle, and not even with the chat chunk. Same-origin, cached for good
 * (its name carries a hash).
 */
let loading: Promise<EmojiData | null> | null = null;
let failed = false;

/** One stable promise (for `use()`): the data, or null when it could not be fetched. */
export function loadEmojiData(): Promise<EmojiData | null> {
  loading ??= fetch(dataUrl)
    .then((r) => (r.ok ? (r.json() as Promise<UnicodeEmojiGroups>) : Promise.reject(new Error(`HTTP ${r.status}`))))
    .then(emojiData)
    .catch((err: unknown) => {
      log.error('emoji data', err);
      failed = true;
      return null;
    });
  return loading;
}

/** A failed fetch is tried again when the picker next opens. */
export function retryEmojiDataIfFailed(): void {
  if (failed) {
    failed = false;
    loading = null;
  }
}
