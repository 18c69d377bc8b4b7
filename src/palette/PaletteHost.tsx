import { lazy, Suspense, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { HotkeyManager } from '../kernel';
import { paletteState } from './store';

/*
 * The palette UI (cmdk, the matcher, the virtualiser) is not needed for the first screen, so it is a
 * separate chunk: fetched when the browser is idle after boot, or at the latest on the first open.
 */
const loadPalette = () => import('./Palette');
const Palette = lazy(() => loadPalette().then((m) => ({ default: m.Palette })));

export function PaletteHost({ hotkeys }: { hotkeys: HotkeyManager }) {
  const { open } = useSnapshot(paletteState);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1500));
    idle(() => void loadPalette());
  }, []);
  if (!wanted && !open) return null;
  return (
    <Suspense fallback={null}>
      <Palette hotkeys={hotkeys} />
    </Suspense>
  );
}
