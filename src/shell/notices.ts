import { UNSTABLE_ToastQueue as ToastQueue } from 'react-aria-components';
import type { Notifier, ToastInput } from '../kernel';
import type { Announcer } from './announcer';

/*
 * The toast queue without the region that shows them (toasts.tsx): a notice raised before the
 * region has loaded waits in the queue.
 */

export const DEFAULT_TOAST_MS = 5000;

/** Queue shared by the Notifier service and the region; toasts are announced by react-aria. */
export const toastQueue = new ToastQueue<ToastInput>({ maxVisibleToasts: 4 });

export function createNotifier(announcer: Announcer): Notifier {
  return {
    toast(input) {
      const timeout = input.timeoutMs === undefined ? DEFAULT_TOAST_MS : input.timeoutMs;
      return toastQueue.add(input, { timeout: timeout === null ? undefined : Math.max(timeout, 5000), onClose: input.onClose });
    },
    dismiss(id) {
      toastQueue.close(id);
    },
    announce: (text, politeness) => announcer.announce(text, politeness),
  };
}
