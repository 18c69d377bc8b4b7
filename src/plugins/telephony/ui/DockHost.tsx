import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { telephonyChunk } from '../chunk';
import { phone } from '../state';

// The dock and the dialpad are in the telephony chunk (normally loaded already by the engine).
// This panel itself is boot code: the `callDock` slot renders it on every screen.
const CallDock = lazy(() => telephonyChunk.load().then((m) => ({ default: m.CallDock })));

/** The `callDock` slot's panel: nothing at all while there is no call, no click-dial notice and no open dialpad. */
export function DockHost() {
  const s = useSnapshot(phone);
  if (!s.dialpadOpen && !s.clickDial && Object.keys(s.calls).length === 0) return null;
  return (
    <Suspense fallback={null}>
      <CallDock />
    </Suspense>
  );
}
