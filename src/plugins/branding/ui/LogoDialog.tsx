import { use, useEffect, useState } from 'react';
import { Button, Dialog, DropZone, FileTrigger, Heading, isFileDropItem, Modal, ModalOverlay, Text } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Notifications, useKernel } from '../../../kernel';
import { LOGO_MAX_BYTES, LOGO_MAX_PX, LOGO_MIN_PX } from '../../../wire/branding';
import { uploadLogo } from '../api';
import { fileProblem } from '../model';
import { brandingState } from '../state';
import { strings } from '../strings';
import './branding.css';

const close = () => {
  brandingState.dialogOpen = false;
};

/**
 * Choose (or drop) an image, see it, upload it. A file the server will refuse for its type or size
 * is refused here at once; the server's own refusal (its dimensions) is shown as it says it. The
 * chosen file stays chosen after a refusal, so nothing has to be picked again to try another way.
 */
export default function LogoDialog() {
  const { t, i18n } = useTranslation('branding');
  use(strings(i18n.language));
  const kernel = useKernel();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (f: File | undefined) => {
    if (!f) return;
    const problem = fileProblem(f);
    setError(problem ? t(problem === 'type' ? 'dialog.notAnImage' : 'dialog.tooLarge', { kb: LOGO_MAX_BYTES / 1024 }) : null);
    setFile(problem ? null : f);
  };

  const upload = async () => {
    if (!file || busy) return;
    setBusy(true);
    const result = await uploadLogo(kernel, file);
    setBusy(false);
    if (result.ok) {
      kernel.get(Notifications).toast({ titleKey: 'branding:toasts.uploaded', tone: 'success', timeoutMs: 4000 });
      close();
    } else setError(result.message ?? t('dialog.failed'));
  };

  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && close()} className="modal-overlay">
      <Modal className="modal">
        <Dialog className="dialog branding-dialog">
          <Heading slot="title">{t('dialog.title')}</Heading>
          <Text className="branding-muted">{t('dialog.rules', { kb: LOGO_MAX_BYTES / 1024, min: LOGO_MIN_PX, max: LOGO_MAX_PX })}</Text>
          <DropZone
            className="branding-drop"
            aria-label={t('dialog.drop')}
            onDrop={async (e) => {
              const item = e.items.find(isFileDropItem);
              if (item) choose(await item.getFile());
            }}
          >
            {preview ? <img className="branding-preview" src={preview} alt={t('dialog.preview', { name: file?.name ?? '' })} /> : <Text slot="label">{t('dialog.drop')}</Text>}
          </DropZone>
          <FileTrigger acceptedFileTypes={['image/png', 'image/jpeg', 'image/gif', 'image/webp']} onSelect={(list) => choose(list?.[0] ?? undefined)}>
            <Button className="btn" autoFocus>
              {t(file ? 'dialog.chooseAnother' : 'dialog.choose')}
            </Button>
          </FileTrigger>
          <p role="alert" className="branding-error">
            {error ?? ''}
          </p>
          <div className="dialog-actions">
            <Button className="btn" onPress={close}>
              {t('dialog.cancel')}
            </Button>
            <Button className="btn primary" isDisabled={!file || busy} onPress={() => void upload()}>
              {t(busy ? 'dialog.uploading' : 'dialog.upload')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
