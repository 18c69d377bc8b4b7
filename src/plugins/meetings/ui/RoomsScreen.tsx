import { useNavigate, useParams } from '@tanstack/react-router';
import { use, useEffect, useRef, useState } from 'react';
import { Button, Dialog, FieldError, Heading, Input, Label, Modal, ModalOverlay, TextArea, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Notifications, useKernel } from '../../../kernel';
import { VirtualGridList } from '../../../ui/VirtualGridList';
import type { Meeting } from '../../../wire/meetings';
import { keepRoomsFresh, loadPermissions, loadRooms, saveRoom, serverMessage } from '../api';
import { confirmDelete, copyLink, joinMeeting } from '../meeting';
import { codeToWire, isCode } from '../model';
import { meetingsState, NEW_ROOM_ID, ROOMS_PATH } from '../state';
import { strings } from '../strings';
import { AvatarStack } from './MeetingDetail';
import { ListPending } from '../../../ui/ListPending';
import './meetings.css';

export default function RoomsScreen() {
  const { i18n } = useTranslation('meetings');
  use(strings(i18n.language));
  return <Screen />;
}

function Screen() {
  const { t } = useTranslation('meetings');
  const kernel = useKernel();
  const navigate = useNavigate();
  const { id } = useParams({ strict: false }) as { id?: string };
  const snap = useSnapshot(meetingsState);
  const rooms = snap.rooms as readonly Meeting[] | null;
  const listRef = useRef<HTMLDivElement>(null);
  const canBook = snap.permissions?.can_book_rooms === true;
  const creating = id === NEW_ROOM_ID;
  const selected = id && !creating ? rooms?.find((r) => r.id === Number(id)) : undefined;
  const [editing, setEditing] = useState<Meeting | null>(null);

  useEffect(() => {
    if (meetingsState.rooms === null) void loadRooms(kernel).then(() => keepRoomsFresh(kernel));
    if (meetingsState.permissions === null) void loadPermissions(kernel);
  }, [kernel]);
  useEffect(() => {
    meetingsState.selectedRoomId = selected?.id ?? null;
  }, [selected?.id]);

  const go = (rid: string | null) => void navigate({ to: rid ? `${ROOMS_PATH}/${rid}` : ROOMS_PATH, replace: true });

  return (
    <div className="split meetings-screen" data-has-selection={selected ? true : undefined}>
      <section className="list-pane" aria-labelledby="rm-list-heading">
        <h2 id="rm-list-heading" className="visually-hidden">
          {t('rooms.heading')}
        </h2>
        {canBook && (
          <div className="mt-toolbar" role="toolbar" aria-label={t('toolbar.label')}>
            <Button className="btn primary" onPress={() => go(NEW_ROOM_ID)}>
              {t('rooms.new')}
            </Button>
          </div>
        )}
        {!rooms ? (
          <ListPending failed={snap.roomsFailed} onRetry={() => void loadRooms(kernel)} text={{ error: t('list.error'), retry: t('list.retry'), loading: t('list.loading') }} />
        ) : rooms.length === 0 ? (
          <p className="empty-state">{t('rooms.empty')}</p>
        ) : (
          <VirtualGridList
            rows={rooms.map((r) => ({ ...r, id: String(r.id), roomId: r.id }))}
            selectedId={selected ? String(selected.id) : undefined}
            listRef={listRef}
            rowHeight={52}
            label={t('rooms.label')}
            idPrefix="rm-row-"
            className="list mt-list"
            rowLabel={(r) => r.meeting_name}
            rowClassName={() => 'row mt-row'}
            cellClassName="mt-cell"
            onSelect={(rid) => go(rid)}
            onActivate={(rid) => go(rid)}
          >
            {(r) => (
              <span className="row-main">
                <span className="row-primary">{r.meeting_name}</span>
                <span className="row-secondary">{r.meeting_description || r.booked_by}</span>
              </span>
            )}
          </VirtualGridList>
        )}
      </section>
      <section className="detail-pane" aria-label={selected ? undefined : t('rooms.detail')} aria-labelledby={selected ? 'rm-detail-heading' : undefined}>
        {selected ? (
          <article className="mt-detail">
            <h2 id="rm-detail-heading">{selected.meeting_name}</h2>
            {selected.meeting_description && <p>{selected.meeting_description}</p>}
            <div className="mt-actions">
              <Button className="btn primary" onPress={() => joinMeeting(kernel, selected)}>
                {t('detail.join')}
              </Button>
              {selected.url && (
                <Button className="btn" onPress={() => void copyLink(kernel, selected)}>
                  {t('detail.copy')}
                </Button>
              )}
              {canBook && (
                <>
                  <Button className="btn" onPress={() => setEditing(selected)}>
                    {t('detail.edit')}
                  </Button>
                  <Button className="btn danger" onPress={() => void confirmDelete(kernel, selected)}>
                    {t('detail.delete')}
                  </Button>
                </>
              )}
            </div>
            <p className="muted mt-join-help">{t('detail.joinHelp')}</p>
            <dl className="mt-facts">
              {selected.meeting_access_code && (
                <>
                  <dt>{t('detail.id')}</dt>
                  <dd>{selected.meeting_access_code}</dd>
                </>
              )}
              {selected.url && (
                <>
                  <dt>{t('detail.link')}</dt>
                  <dd className="mt-link">{selected.url}</dd>
                </>
              )}
              <dt>{t('rooms.moderators')}</dt>
              <dd>{selected.attendees.length ? <AvatarStack names={selected.attendees.map((a) => a.name)} /> : t('detail.noInvitees')}</dd>
            </dl>
          </article>
        ) : (
          <p className="empty-state">{t('rooms.none')}</p>
        )}
      </section>
      {(creating || editing) && canBook && (
        <RoomModal
          room={editing}
          onClose={(saved) => {
            setEditing(null);
            if (creating) go(saved ? String(saved.id) : null);
            else if (saved) kernel.get(Notifications).toast({ titleKey: 'meetings:toasts.roomSaved', tone: 'success' });
          }}
        />
      )}
    </div>
  );
}

/** The create/edit room modal: name, description, PIN. */
function RoomModal({ room, onClose }: { room: Meeting | null; onClose(saved: Meeting | null): void }) {
  const { t } = useTranslation('meetings');
  const kernel = useKernel();
  const [name, setName] = useState(room?.meeting_name ?? '');
  const [description, setDescription] = useState(room?.meeting_description ?? '');
  const [pin, setPin] = useState(room?.pin ?? '');
  const [errors, setErrors] = useState<{ name?: string; pin?: string }>({});
  const save = async () => {
    const next = { name: name.trim() ? undefined : t('errors.nameRequired'), pin: isCode(pin) ? undefined : t('errors.pin') };
    setErrors(next);
    if (next.name || next.pin) return;
    try {
      const saved = await saveRoom(kernel, room?.id ?? null, { meeting_name: name.trim(), meeting_description: description, pin: codeToWire(pin), moderators: room?.attendees.flatMap((a) => (a.user_id ? [a.user_id] : [])) ?? [] });
      onClose(saved);
    } catch (err) {
      const message = serverMessage(err);
      kernel.get(Notifications).toast({ titleKey: 'meetings:toasts.saveFailed', ...(message ? { message } : { messageKey: 'meetings:toasts.tryAgain' }), tone: 'error' });
    }
  };
  return (
    <ModalOverlay isOpen onOpenChange={(o) => !o && onClose(null)} isDismissable className="modal-overlay">
      <Modal className="modal">
        <Dialog className="dialog">
          <div onKeyDownCapture={(e) => e.key === 'Enter' && (e.ctrlKey || e.metaKey) && (e.preventDefault(), e.stopPropagation(), void save())}>
          <Heading slot="title">{room ? t('rooms.editTitle') : t('rooms.newTitle')}</Heading>
          <TextField className="field" value={name} onChange={setName} isInvalid={!!errors.name} autoFocus>
            <Label>{t('modal.name')}</Label>
            <Input className="input" />
            <FieldError className="field-error">{errors.name}</FieldError>
          </TextField>
          <TextField className="field" value={description} onChange={setDescription}>
            <Label>{t('modal.description')}</Label>
            <TextArea className="input" rows={3} />
          </TextField>
          <TextField className="field" value={pin} onChange={setPin} isInvalid={!!errors.pin} inputMode="numeric">
            <Label>{t('modal.pin')}</Label>
            <Input className="input" autoComplete="off" />
            <FieldError className="field-error">{errors.pin}</FieldError>
          </TextField>
          <div className="dialog-actions">
            <Button className="btn" onPress={() => onClose(null)}>
              {t('modal.cancel')}
            </Button>
            <Button className="btn primary" onPress={() => void save()}>
              {t('modal.save')}
            </Button>
          </div>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
