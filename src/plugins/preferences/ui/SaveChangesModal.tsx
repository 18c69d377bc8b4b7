import { useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';

/** Leaving a panel with unsaved changes: save and go, discard and go, or stay (Escape too). */
export function SaveChangesModal({ panelTitle, onSave, onDiscard, onCancel }: { panelTitle: string; onSave: () => Promise<void>; onDiscard: () => void; onCancel: () => void }) {
  const { t } = useTranslation('preferences');
  const [saving, setSaving] = useState(false);
  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && !saving && onCancel()} isDismissable={false} isKeyboardDismissDisabled={saving} className="modal-overlay">
      <Modal className="modal">
        <Dialog role="alertdialog" className="dialog">
          <Heading slot="title">{t('unsaved.title')}</Heading>
          <p>{t('unsaved.message', { panel: panelTitle })}</p>
          <div className="dialog-actions">
            <Button className="btn" onPress={onCancel} isDisabled={saving}>
              {t('unsaved.cancel')}
            </Button>
            <Button className="btn" onPress={onDiscard} isDisabled={saving}>
              {t('unsaved.discard')}
            </Button>
            <Button className="btn primary" autoFocus isDisabled={saving} onPress={() => (setSaving(true), void onSave().finally(() => setSaving(false)))}>
              {t('unsaved.save')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
