import { useEffect, useRef } from 'react';
import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { Notifier, ToastInput } from '../kernel';

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

export function Toasts() {
  const { t } = useTranslation('shell');
  return (
    <ToastRegion queue={toastQueue} className="toast-region" aria-label={t('notifications')}>
      {({ toast }) => {
        const c = toast.content;
        const title = c.titleKey ? t(c.titleKey, c.values) : c.title;
        const message = c.messageKey ? t(c.messageKey, c.values) : c.message;
        return (
          <Toast toast={toast} className={`toast toast-${c.tone ?? 'info'}`}>
            <ToastContent className="toast-content">
              {title && <Text slot="title" className="toast-title">{title}</Text>}
              {message && <Text slot="description">{message}</Text>}
            </ToastContent>
            {c.action && (
              <Button
                className="btn"
                onPress={() => {
                  c.action!.run();
                  toastQueue.close(toast.key);
                }}
              >
                {t(c.action.labelKey)}
              </Button>
            )}
            <Button slot="close" className="btn icon" aria-label={t('dismiss')}>
              ×
            </Button>
          </Toast>
        );
      }}
    </ToastRegion>
  );
}

/** Two live regions (polite and assertive) the whole app shares, so announcements never stack up. */
export class Announcer {
  private listeners = new Set<(m: { text: string; politeness: 'polite' | 'assertive'; n: number }) => void>();
  private n = 0;
  announce(text: string, politeness: 'polite' | 'assertive' = 'polite'): void {
    this.n++;
    for (const l of this.listeners) l({ text, politeness, n: this.n });
  }
  subscribe(l: (m: { text: string; politeness: 'polite' | 'assertive'; n: number }) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}

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
