import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { loadLazy } from '../chunk';
import { meetingsState } from '../state';

const Modal = lazy(() => loadLazy().then(async (m) => (await m.strings(), { default: m.AdHocInviteModal })));

/** The `callDock` slot's panel: nothing until the user invites someone to meet now, then the chunk's modal. */
export function AdHocHost() {
  const s = useSnapshot(meetingsState);
  if (!s.adhocModal) return null;
  return (
    <Suspense fallback={null}>
      <Modal />
    </Suspense>
  );
}
