import { useEffect, useRef } from 'react';
import type { Announcer } from './announcer';

/**
 * Each announcement is one DOM change: the text node replaced in a single write. Clearing the region
 * and filling it again through React state made two changes whenever React committed them apart (in
 * a discrete event, or split by the scheduler), and a screen reader that reads a whole (atomic)
 * region on each change read the message twice. Replacing the node still repeats an identical message.
 */
export function LiveRegions({ announcer }: { announcer: Announcer }) {
  const polite = useRef<HTMLDivElement>(null);
  const assertive = useRef<HTMLDivElement>(null);
  useEffect(
    () =>
      announcer.subscribe(({ text, politeness }) => {
        const region = (politeness === 'assertive' ? assertive : polite).current;
        if (region) region.textContent = text;
      }),
    [announcer],
  );
  return (
    <>
      <div ref={polite} className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" />
      <div ref={assertive} className="visually-hidden" role="alert" aria-live="assertive" aria-atomic="true" />
    </>
  );
}
