import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { toastQueue } from './notices';

/** The region that shows the queue's toasts; react-aria announces them. */
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
