import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { loadChunk } from '../chunk';
import { sdState } from '../state';

const Overlays = lazy(() => loadChunk().then((m) => ({ default: m.Overlays })));

/** The `callDock` slot's panel: nothing until the form or the side panel opens, then the chunk's dialog. */
export function OverlayHost() {
  const s = useSnapshot(sdState);
  if (!s.form && !s.panelOpen) return null;
  return (
    <Suspense fallback={null}>
      <Overlays />
    </Suspense>
  );
}
