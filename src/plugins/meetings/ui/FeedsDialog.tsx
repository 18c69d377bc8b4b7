import { useState } from 'react';
import { Button, Dialog, FieldError, Heading, Input, Label, Modal, ModalOverlay, Text, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Notifications, useKernel } from '../../../kernel';
import type { CalendarFeed } from '../../../wire/meetings';
import { addFeed, loadList, refreshFeed, removeFeed, serverMessage } from '../api';
import { meetingsState } from '../state';

/** External calendars: iCalendar addresses (what Outlook and Google publish) whose events show under the "e" filter. */
export function FeedsDialog() {
  const { t, i18n } = useTranslation('meetings');
  const kernel = useKernel();
  const feeds = useSnapshot(meetingsState).feeds as readonly CalendarFeed[] | null;
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fmt = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      setError(null);
      void loadList(kernel);
    } catch (err) {
      const message = serverMessage(err);
      setError(message ?? t('toasts.tryAgain'));
      kernel.get(Notifications).toast({ titleKey: 'meetings:feeds.failed', ...(message ? { message } : { messageKey: 'meetings:toasts.tryAgain' }), tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <ModalOverlay isOpen onOpenChange={(o) => !o && (meetingsState.feedsOpen = false)} isDismissable className="modal-overlay">
      <Modal className="modal wide">
        <Dialog className="dialog">
          <Heading slot="title">{t('feeds.title')}</Heading>
          <p className="muted">{t('feeds.help')}</p>
          {feeds && feeds.length > 0 ? (
            <ul className="mt-feeds">
              {feeds.map((f) => (
                <li key={f.id}>
                  <strong>{f.name || f.url}</strong>
                  <span className="muted"> · {t('feeds.events', { count: f.event_count })}</span>
                  {f.last_fetched_at && <span className="muted"> · {t('feeds.fetched', { at: fmt.format(Date.parse(f.last_fetched_at)) })}</span>}
                  {f.last_error && <span className="field-error"> · {f.last_error}</span>}
                  <span className="mt-feed-actions">
                    <Button className="btn small" isPending={busy} onPress={() => void act(() => refreshFeed(kernel, f.id))}>
                      {t('feeds.refresh')}
                    </Button>
                    <Button className="btn small danger" isPending={busy} onPress={() => void act(() => removeFeed(kernel, f.id))}>
                      {t('feeds.remove')}
                    </Button>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p>{t('feeds.none')}</p>
          )}
          <TextField className="field" value={url} onChange={setUrl} isInvalid={!!error}>
            <Label>{t('feeds.url')}</Label>
            <Input className="input" type="url" />
            <Text slot="description" className="muted">
              {t('feeds.urlHint')}
            </Text>
            <FieldError className="field-error">{error}</FieldError>
          </TextField>
          <div className="dialog-actions">
            <Button className="btn" slot="close">
              {t('modal.close')}
            </Button>
            <Button className="btn primary" isPending={busy} isDisabled={!url.trim()} onPress={() => void act(async () => (await addFeed(kernel, { url: url.trim() }), setUrl('')))}>
              {t('feeds.add')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
