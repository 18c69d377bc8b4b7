import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useKernel } from '../../../kernel';
import { apply, join } from '../adhoc/invites';
import { current, isPending, type AdHocInvite } from '../adhoc/model';
import { meetingsState } from '../state';
import './adhoc.css';

/**
 * The inviter's ad-hoc private meeting invite modal: "Waiting for Bob…" with Cancel, then what
 * became of it. Once the meeting's window opens (2 s after it is available) the modal closes.
 */
export function AdHocInviteModal() {
  const { t } = useTranslation('meetings');
  const kernel = useKernel();
  const s = useSnapshot(meetingsState);
  const id = s.adhocModal;
  const stored = id ? (s.adhoc[id] as AdHocInvite | undefined) : undefined;
  if (!id || !stored) return null;
  const inv = current(stored, Date.now());
  const pending = isPending(stored, Date.now());
  const close = () => (meetingsState.adhocModal = null);
  return (
    <ModalOverlay isOpen onOpenChange={(o) => !o && !pending && close()} isDismissable={!pending} className="modal-overlay">
      <Modal className="modal">
        <Dialog className="dialog adhoc-modal">
          <Heading slot="title">{t('adhoc.modal.title', { name: inv.peerName })}</Heading>
          <p role="status" className="adhoc-status">
            {t(`adhoc.status.inviter.${inv.status}`, { name: inv.peerName })}
          </p>
          <div className="dialog-actions">
            {pending ? (
              <Button className="btn" autoFocus onPress={() => void apply(id, { kind: 'cancel' })}>
                {t('adhoc.cancel')}
              </Button>
            ) : (
              <>
                {inv.status === 'available' && (
                  <Button className="btn primary" onPress={() => join(kernel, id)}>
                    {t('adhoc.join')}
                  </Button>
                )}
                <Button className="btn" autoFocus onPress={close}>
                  {t('adhoc.close')}
                </Button>
              </>
            )}
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
