import { lazy, Suspense } from 'react';
import { proxy, ref, useSnapshot } from 'valtio';
import type { ConfirmOptions, DialogHost } from '../kernel';

interface Pending {
  id: number;
  opts: ConfirmOptions;
  resolve: (r: { confirmed: boolean; remember: boolean }) => void;
}

// Nothing asks for a confirmation on the first screen: the modal is not part of its JavaScript.
const ConfirmModal = lazy(() => import('./ConfirmModal').then((m) => ({ default: m.ConfirmModal })));

const queue = proxy({ items: [] as Pending[] });
let seq = 0;

/** One modal at a time, in order: a second confirmation waits for the first. */
export const dialogHost: DialogHost = {
  confirm(opts) {
    return new Promise((resolve) => {
      queue.items.push(ref({ id: ++seq, opts, resolve }) as Pending);
    });
  },
};

export function ModalHost() {
  const { items } = useSnapshot(queue);
  const current = items[0] as Pending | undefined;
  const finish = (confirmed: boolean, remember: boolean) => {
    const head = queue.items.shift();
    head?.resolve({ confirmed, remember });
  };
  if (!current) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmModal key={current.id} id={current.id} opts={current.opts} onDone={finish} />
    </Suspense>
  );
}
