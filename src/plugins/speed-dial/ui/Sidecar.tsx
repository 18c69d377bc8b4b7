import { Button, Dialog, GridList, GridListItem, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Navigation, useKernel } from '../../../kernel';
import type { SpeedDial } from '../../../wire/speedDial';
import { call } from '../api';
import { sdState, SPEED_DIAL_PATH } from '../state';
import { EntryRow, useRowText } from './EntryRow';
import './speedDial.css';

const close = () => {
  sdState.panelOpen = false;
};

/** The side panel of the dialpad and the call screen: the entries to dial (Enter calls and closes it). */
export function Sidecar() {
  const { t } = useTranslation('speed-dial');
  const kernel = useKernel();
  const s = useSnapshot(sdState);
  const rowText = useRowText();
  const items = (s.items ?? []) as SpeedDial[];
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && close()} className="modal-overlay sd-sidecar-overlay">
      <Modal className="modal sd-sidecar">
        <Dialog className="dialog">
          <Heading slot="title">{t('panel.title')}</Heading>
          <GridList
            aria-label={t('panel.list')}
            className="list sd-list"
            items={items}
            autoFocus="first"
            onAction={(key) => {
              const e = items.find((x) => x.id === key);
              close();
              if (e) void call(kernel, e);
            }}
            renderEmptyState={() => <p className="sd-muted">{s.items ? t('list.empty') : t('list.loading')}</p>}
          >
            {(e) => (
              <GridListItem id={e.id} textValue={rowText(e)} className="row sd-item">
                <EntryRow e={e} />
              </GridListItem>
            )}
          </GridList>
          <div className="dialog-actions">
            <Button
              className="btn"
              onPress={() => {
                close();
                kernel.get(Navigation).navigate(SPEED_DIAL_PATH);
              }}
            >
              {t('panel.manage')}
            </Button>
            <Button className="btn" slot="close">
              {t('panel.close')}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
