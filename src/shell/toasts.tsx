import { useState } from 'react';
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

export function LiveRegions({ announcer }: { announcer: Announcer }) {
  const [polite, setPolite] = useState('');
  const [assertive, setAssertive] = useState('');
  useState(() =>
    announcer.subscribe(({ text, politeness }) => {
      // Clearing first makes screen readers repeat an identical message.
      const set = politeness === 'assertive' ? setAssertive : setPolite;
      set('');
      queueMicrotask(() => set(text));
    }),
  );
  return (
    <>
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {polite}
      </div>
      <div className="visually-hidden" role="alert" aria-live="assertive" aria-atomic="true">
        {assertive}
      </div>
    </>
  );
}
