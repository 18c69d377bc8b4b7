import { useCallback, useEffect, useState, type ComponentType } from 'react';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useService } from '../../../../kernel';
import { ProfileEditor, type ProfileEditorProps } from '../../../../contracts';
import { log } from '../../log';
import { usePanelForm } from '../usePanelForm';

/**
 * The edit-profile dialog. Its form is the contacts' profile form (ProfileEditor), the one that
 * also edits colleagues for administrators: names, alias, company, e-mail addresses, phone numbers
 * and address, with their rules and the catalogue's error texts. Escape leaves without saving;
 * leaving the panel with changes asks first, as every panel does.
 */
export function ProfileEditModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('preferences');
  const editor = useService(ProfileEditor);
  const [Form, setForm] = useState<{ component: ComponentType<ProfileEditorProps> } | 'failed' | null>(null);
  const [unsaved, setUnsaved] = useState<{ dirty: boolean; save: () => Promise<boolean> }>({ dirty: false, save: async () => true });
  useEffect(() => {
    let live = true;
    editor.load().then(
      (component) => live && setForm({ component }),
      (err: unknown) => (log.error('the profile form', err), live && setForm('failed')),
    );
    return () => void (live = false);
  }, [editor]);
  const onDirty = useCallback((dirty: boolean, save: () => Promise<boolean>) => setUnsaved({ dirty, save }), []);
  usePanelForm('profile', { dirty: unsaved.dirty, save: unsaved.save, discard: onClose });

  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && onClose()} isDismissable className="modal-overlay">
      <Modal className="modal wide">
        <Dialog className="dialog" aria-label={t('profile.edit')}>
          {Form === null ? (
            <p className="prefs-status">{t('loading')}</p>
          ) : Form === 'failed' ? (
            <p role="alert" className="prefs-error">
              {t('profile.unavailable')}
            </p>
          ) : (
            <Form.component onDone={onClose} onDirty={onDirty} />
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
