import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Api, useService } from '../kernel';
import { confirmAnnouncement } from './frameChecks';
import { shellState } from './uiState';

/*
 * The frame's own modals, loaded only when one is due: the old-client modal first (a stale tab
 * should reload before reading news), then the feature announcement.
 */
export function FrameNotices() {
  const { oldClient, announcement } = useSnapshot(shellState);
  if (oldClient) return <OldClientModal reason={oldClient} />;
  if (announcement) return <AnnouncementModal id={announcement} />;
  return null;
}

function OldClientModal({ reason }: { reason: 'stale' | 'browser' }) {
  const { t } = useTranslation('shell');
  const close = () => (shellState.oldClient = null);
  return (
    <ModalOverlay isOpen onOpenChange={(o) => !o && close()} isDismissable className="modal-overlay">
      <Modal className="modal">
        <Dialog role="alertdialog" className="dialog">
          <Heading slot="title">{t('oldClient.title')}</Heading>
          <p>{t(reason === 'browser' ? 'oldClient.browser' : 'oldClient.stale')}</p>
          <div className="dialog-actions">
            <Button className="btn" onPress={close}>
              {t('oldClient.later')}
            </Button>
            <Button className="btn primary" onPress={() => location.reload()} autoFocus>
              {t('oldClient.reload')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** Shown until confirmed: closing it any other way (Esc) only hides it for this visit. */
function AnnouncementModal({ id }: { id: 'design-changes' }) {
  const { t } = useTranslation('shell');
  const api = useService(Api);
  const hide = () => (shellState.announcement = null);
  const confirm = () => confirmAnnouncement(api, id).catch((err: unknown) => (console.error('announcement', err), hide()));
  return (
    <ModalOverlay isOpen onOpenChange={(o) => !o && hide()} isDismissable className="modal-overlay">
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title">{t('announcement.title')}</Heading>
          <p>{t('announcement.intro')}</p>
          <ul>
            <li>{t('announcement.palette')}</li>
            <li>{t('announcement.create')}</li>
            <li>{t('announcement.apps')}</li>
          </ul>
          <div className="dialog-actions">
            <Button className="btn primary" onPress={() => void confirm()} autoFocus>
              {t('announcement.confirm')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
