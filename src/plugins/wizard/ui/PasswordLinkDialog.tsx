import { useState } from 'react';
import { Button, Dialog, Heading, Input, Label, Modal, ModalOverlay, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { wizardState } from '../state';

/**
 * The set-password link just issued: the administrator copies it and hands it to the user. The
 * link is read-only text (selectable, so copying by hand works too); it is shown this once.
 */
export function PasswordLinkDialog() {
  const { t, i18n } = useTranslation('wizard');
  const s = useSnapshot(wizardState);
  const [copied, setCopied] = useState(false);
  const link = s.link;
  if (!link) return null;
  const close = () => ((wizardState.link = null), setCopied(false));
  const until = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(link.expiresAt));
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch {
      // No clipboard (permission, an old browser): the link stays selectable in its field.
      setCopied(false);
    }
  };
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && close()} className="modal-overlay">
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title">{t('link.title', { username: link.username })}</Heading>
          <p>{t('link.text', { until })}</p>
          <TextField className="field" value={link.url} isReadOnly>
            <Label>{t('link.label')}</Label>
            <Input className="input wz-link" onFocus={(e) => e.currentTarget.select()} />
          </TextField>
          <p role="status" className="wz-muted">
            {copied ? t('link.copied') : ''}
          </p>
          <div className="dialog-actions">
            <Button className="btn" onPress={() => void copy()}>
              {t('link.copy')}
            </Button>
            <Button className="btn primary" onPress={close} autoFocus>
              {t('link.done')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
