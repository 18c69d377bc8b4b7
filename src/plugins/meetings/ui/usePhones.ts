import { useCallback, useEffect, useState } from 'react';
import { useKernel } from '../../../kernel';
import type { MeetingPhones } from '../../../wire/meetings';
import { readPhones } from '../api';
import { log } from '../log';

const PHONES_REFRESH_MS = 3000;

/**
 * The phones dialled into the meeting, one by one: the page has one tile for all of them (one mix),
 * the participants list one entry each. Read every few seconds while `active` (the list is open and
 * a phone is in), and at once after the host acted on one (`refresh`).
 */
export function usePhones(meetingId: number, active: boolean): { phones: MeetingPhones['phones']; refresh(): void } {
  const kernel = useKernel();
  const [phones, setPhones] = useState<MeetingPhones['phones']>([]);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    if (!active) return setPhones([]);
    let stopped = false;
    const read = () =>
      readPhones(kernel, meetingId).then(
        (r) => {
          if (!stopped) setPhones(r.phones);
        },
        (err: unknown) => log.warn('phones of the meeting not read', err),
      );
    void read();
    const timer = setInterval(() => void read(), PHONES_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [active, kernel, meetingId, tick]);
  return { phones, refresh };
}
