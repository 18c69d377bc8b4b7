import { useState } from 'react';
import { Button, Checkbox, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { ConfirmOptions } from '../kernel';

/** The confirmation modal itself, loaded the first time something asks for a confirmation. */
export function ConfirmModal({ id, opts, onDone }: { id: number; opts: ConfirmOptions; onDone: (confirmed: boolean, remember: boolean) => void }) {
  return (
    <ModalOverlay isOpen onOpenChange={(o) => !o && onDone(false, false)} isDismissable className="modal-overlay">
      <Modal className="modal">
        <ConfirmDialog key={id} opts={opts} onDone={onDone} />
      </Modal>
    </ModalOverlay>
  );
}

function ConfirmDialog({ opts, onDone }: { opts: ConfirmOptions; onDone: (confirmed: boolean, remember: boolean) => void }) {
  const { t } = useTranslation();
  const [remember, setRemember] = useState(false);
  return (
    <Dialog role="alertdialog" className="dialog">
      <Heading slot="title">{t(opts.titleKey, opts.values)}</Heading>
      {opts.messageKey && <p>{t(opts.messageKey, opts.values)}</p>}
      {opts.rememberLabelKey && (
        <Checkbox isSelected={remember} onChange={setRemember} className="checkbox">
          <span className="checkbox-box" aria-hidden="true" />
          {t(opts.rememberLabelKey)}
        </Checkbox>
      )}
      <div className="dialog-actions">
        <Button className="btn" onPress={() => onDone(false, false)} autoFocus>
          {t(opts.cancelLabelKey ?? 'shell:cancel')}
        </Button>
        <Button className={`btn ${opts.tone === 'danger' ? 'danger' : 'primary'}`} onPress={() => onDone(true, remember)}>
          {t(opts.confirmLabelKey, opts.values)}
        </Button>
      </div>
    </Dialog>
  );
}
