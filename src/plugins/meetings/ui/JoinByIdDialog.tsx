import { useState } from 'react';
import { Button, Dialog, FieldError, Heading, Input, Label, Modal, ModalOverlay, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../../../kernel';
import { joinByCode, serverMessage } from '../api';
import { openMeetingWindow } from '../meeting';
import { accessCodeOf, meetingWindowUrl, pinForJoin } from '../model';
import { meetingsState } from '../state';

/**
 * The join popup: a meeting's ID and, when it has one, its PIN ('****', the masked PIN, counts as none).
 * `onClose`: another screen shows it over itself (the dashboard); the meetings screen's flag otherwise.
 */
export function JoinByIdDialog({ onClose }: { onClose?: () => void } = {}) {
  const { t } = useTranslation('meetings');
  const kernel = useKernel();
  const [id, setId] = useState('');
  const [pin, setPin] = useState('');
  const [errors, setErrors] = useState<{ id?: string; pin?: string; server?: string }>({});
  const [busy, setBusy] = useState(false);
  const close = onClose ?? (() => (meetingsState.joinByIdOpen = false));

  const join = async () => {
    const code = accessCodeOf(id);
    const p = pinForJoin(pin);
    const next = { id: code ? undefined : t('joinById.badId'), pin: p ? undefined : t('errors.pin') };
    setErrors(next);
    if (!code || !p) return;
    setBusy(true);
    try {
      const r = await joinByCode(kernel, code, p.pin);
      close();
      // The PIN goes along, so that the lobby does not ask it again (a masked one is none).
      void openMeetingWindow(kernel, r.meeting_id, r.meeting_name, (params) => meetingWindowUrl(r.url, { ...params, pin: p.pin }));
    } catch (err) {
      setErrors({ server: serverMessage(err) ?? t('toasts.tryAgain') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <ModalOverlay isOpen onOpenChange={(o) => !o && close()} isDismissable className="modal-overlay">
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title">{t('joinById.title')}</Heading>
          <div onKeyDown={(e) => void (e.key === 'Enter' && !busy && join())}>
            <TextField className="field" value={id} onChange={setId} isInvalid={!!errors.id} inputMode="numeric" autoFocus>
              <Label>{t('joinById.id')}</Label>
              <Input className="input" autoComplete="off" />
              <FieldError className="field-error">{errors.id}</FieldError>
            </TextField>
            <TextField className="field" value={pin} onChange={setPin} isInvalid={!!errors.pin} type="password" inputMode="numeric">
              <Label>{t('joinById.pin')}</Label>
              <Input className="input" autoComplete="off" />
              <FieldError className="field-error">{errors.pin}</FieldError>
            </TextField>
            {errors.server && (
              <p className="field-error" role="alert">
                {errors.server}
              </p>
            )}
          </div>
          <div className="dialog-actions">
            <Button className="btn" onPress={close}>
              {t('modal.cancel')}
            </Button>
            <Button className="btn primary" isPending={busy} onPress={() => void join()}>
              {t('detail.join')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
