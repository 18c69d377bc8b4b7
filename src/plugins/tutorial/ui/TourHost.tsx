import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { loadChunk } from '../chunk';
import { tutorialState } from '../state';

const Tour = lazy(() => loadChunk().then((m) => ({ default: m.Tour })));

/** Nothing until a tour runs; then the chunk's tour card. */
export function TourHost() {
  const { step } = useSnapshot(tutorialState);
  if (step === null) return null;
  return (
    <Suspense fallback={null}>
      <Tour />
    </Suspense>
  );
}
