import { useState } from 'react';
import { Button, Checkbox, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { proxy, ref, useSnapshot } from 'valtio';
import type { ConfirmOptions, DialogHost } from '../kernel';

interface Pending {
  id: number;
  opts: ConfirmOptions;
  resolve: (r: { confirmed: boolean; remember: boolean }) => void;
}

const queue = proxy({ items: [] as Pending[] });
let seq = 0;

/** One modal at a time, in order: a second confirmation waits for the first. */
export const dialogHost: DialogHost = {
  confirm(opts) {
    return new Promise((resolve) => {
      queue.items.push(ref({ id: ++seq, opts, resolve }) as Pending);
    });
  },
};

export function ModalHost() {
  const { items } = useSnapshot(queue);
  const current = items[0] as Pending | undefined;
  const finish = (confirmed: boolean, remember: boolean) => {
    const head = queue.items.shift();
    head?.resolve({ confirmed, remember });
  };
  return (
    <ModalOverlay isOpen={!!current} onOpenChange={(o) => !o && finish(false, false)} isDismissable className="modal-overlay">
      <Modal className="modal">{current && <ConfirmDialog key={current.id} opts={current.opts} onDone={finish} />}</Modal>
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
