import { lazy, Suspense, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { loadChunk } from '../chunk';
import { tutorialState } from '../state';

const Tour = lazy(() => loadChunk().then((m) => ({ default: m.Tour })));

const modalOpen = () => document.querySelector('[aria-modal="true"]') !== null;

/**
 * Whether a modal dialog (the feature announcement, the old-client notice, the palette) owns the
 * screen: the tour waits behind it and comes back at the same step when it closes, instead of
 * fighting it for the focus.
 */
function useModalOpen(active: boolean): boolean {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!active) return;
    setOpen(modalOpen());
    const watch = new MutationObserver(() => setOpen(modalOpen()));
    watch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-modal'] });
    return () => watch.disconnect();
  }, [active]);
  return open;
}

/** Nothing until a tour runs; then the chunk's tour card (hidden while a modal dialog is open). */
export function TourHost() {
  const { step } = useSnapshot(tutorialState);
  const blocked = useModalOpen(step !== null);
  if (step === null || blocked) return null;
  return (
    <Suspense fallback={null}>
      <Tour />
    </Suspense>
  );
}
