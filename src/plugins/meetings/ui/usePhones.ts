import { useCallback, useEffect, useState } from 'react';
import { useKernel } from '../../../kernel';
import type { MeetingPhones } from '../../../wire/meetings';
import { readPhones } from '../api';
import { log } from '../log';

/** After a failed read, the next one waits this long. */
const PHONES_RETRY_MS = 3000;

/**
 * The phones dialled in, one by one (a tile each, and an entry each in the participants list):
 * read while `active` (a phone is in), each read after the first waiting on the server for the
 * next change (`?wait=`: one joined or left, was muted, started or stopped speaking), so a phone's
 * speaking shows as it starts; read again at once after the host acted on one (`refresh`).
 */
export function usePhones(meetingId: number, active: boolean): { phones: MeetingPhones['phones']; refresh(): void } {
  const kernel = useKernel();
  const [phones, setPhones] = useState<MeetingPhones['phones']>([]);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    if (!active) return setPhones([]);
    const stop = new AbortController();
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        stop.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    void (async () => {
      let state: string | undefined;
      while (!stop.signal.aborted) {
        try {
          const r = await readPhones(kernel, meetingId, state, stop.signal);
          if (stop.signal.aborted) return;
          setPhones(r.phones);
          // A server that gives no state (an older one) is read every few seconds instead.
          state = r.state;
          if (!state) await pause(PHONES_RETRY_MS);
        } catch (err) {
          if (stop.signal.aborted) return;
          log.warn('phones of the meeting not read', err);
          state = undefined;
          await pause(PHONES_RETRY_MS);
        }
      }
    })();
    return () => stop.abort();
  }, [active, kernel, meetingId, tick]);
  return { phones, refresh };
}
