import { useState } from 'react';
import { Button, Dialog, FileTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ApiError, Notifications, useKernel, useService } from '../../../../kernel';
import { removeOwnPhoto, uploadOwnPhoto } from '../../api';
import { log } from '../../log';

/** The upload-photo modal: choose an image, upload it; or remove the current photo. The catalogue's failure texts. */
export function ProfilePhotoModal({ hasPhoto, onClose }: { hasPhoto: boolean; onClose: () => void }) {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const notify = useService(Notifications);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>, doneKey: string, failure: { titleKey: string; messageKey: string }) => {
    setBusy(true);
    try {
      await work();
      notify.announce(t(doneKey));
      onClose();
    } catch (err) {
      if (!(err instanceof ApiError)) log.error('profile photo', err);
      notify.toast({ tone: 'error', ...failure, message: err instanceof ApiError && err.status < 500 ? err.body.message : undefined });
    } finally {
      setBusy(false);
    }
  };

  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && !busy && onClose()} isDismissable={!busy} isKeyboardDismissDisabled={busy} className="modal-overlay">
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title">{t('profile.uploadPhoto')}</Heading>
          <FileTrigger
            acceptedFileTypes={['image/png', 'image/jpeg', 'image/gif', 'image/webp']}
            onSelect={(list) => {
              const chosen = list?.[0] ?? null;
              const image = !!chosen && chosen.type.startsWith('image/');
              setFile(image ? chosen : null);
              setProblem(chosen && !image ? t('profile.notImage') : null);
            }}
          >
            <Button className="btn" autoFocus isDisabled={busy}>
              {t('profile.choosePhoto')}
            </Button>
          </FileTrigger>
          <p role="status" className="prefs-status">
            {file ? t('profile.chosen', { name: file.name }) : t('profile.noFile')}
          </p>
          {problem && (
            <p role="alert" className="prefs-error">
              {problem}
            </p>
          )}
          <div className="dialog-actions">
            <Button className="btn" onPress={onClose} isDisabled={busy}>
              {t('profile.cancel')}
            </Button>
            {hasPhoto && (
              <Button
                className="btn"
                isDisabled={busy}
                onPress={() => void run(() => removeOwnPhoto(kernel), 'profile.photoRemoved', { titleKey: 'preferences:profile.errorTitle', messageKey: 'preferences:profile.removeFailed' })}
              >
                {t('profile.removePhoto')}
              </Button>
            )}
            <Button
              className="btn primary"
              isDisabled={!file || busy}
              onPress={() => file && void run(() => uploadOwnPhoto(kernel, file), 'profile.photoSaved', { titleKey: 'preferences:profile.uploadFailedTitle', messageKey: 'preferences:profile.tryAgain' })}
            >
              {t('profile.upload')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
