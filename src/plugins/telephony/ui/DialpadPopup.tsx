import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { phone } from '../state';
import { Dialpad } from './Dialpad';
import { useTelephonyT } from './useTelephonyT';

const close = () => {
  phone.dialpadOpen = false;
};

/** The dialpad as a modal popup ("Open dialpad"); Esc or Close dismisses it, placing a call closes it. */
export function DialpadPopup() {
  const t = useTelephonyT();
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && close()} className="modal-overlay">
      <Modal className="modal dialpad-modal">
        <Dialog className="dialog">
          <Heading slot="title">{t('dialpad.title')}</Heading>
          <Dialpad autoFocus onPlaced={close} />
          <div className="dialog-actions">
            <Button className="btn" slot="close">
              {t('dialpad.close')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
