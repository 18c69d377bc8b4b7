import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { loadChunk } from '../chunk';
import { brandingState } from '../state';

const LogoDialog = lazy(() => loadChunk().then((m) => ({ default: m.LogoDialog })));

/** Nothing until "Upload company logo" runs; then the chunk's dialog. */
export function DialogHost() {
  const { dialogOpen } = useSnapshot(brandingState);
  if (!dialogOpen) return null;
  return (
    <Suspense fallback={null}>
      <LogoDialog />
    </Suspense>
  );
}
