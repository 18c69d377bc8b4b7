import { useNavigate, useParams } from '@tanstack/react-router';
import { useMemo, useState, type FormEvent } from 'react';
import { Button, Checkbox, FieldError, Form, GridList, GridListItem, Input, Label, SearchField, TextField, type Selection } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../../kernel';
import { ROOM_MEMBERS_MAX, ROOM_SUBJECT_MAX } from '../../../wire/chatRooms';
import { currentEngine } from '../engine';
import { chat, chatPath, CHAT_PATH } from '../state';
import { useChatT } from './useChatT';
import './chat.css';

/** Problems the form finds before asking the server; the server's codes map to the same texts. */
type Problem = 'subject_required' | 'subject_too_long' | 'members_required' | 'too_many_members' | 'not_a_colleague' | 'self_member' | 'duplicate_member';

/**
 * `room/{id}`: a new group (`new`, type muc) or an existing one (its JID). The subject, and the
 * members chosen among the colleagues one may chat with (the server's list: company users with chat,
 * oneself and the limited-access role left out). What was typed stays after a refusal.
 */
export default function RoomEditScreen() {
  const t = useChatT();
  const s = useSnapshot(chat);
  const { id: raw } = useParams({ strict: false }) as { id?: string };
  const id = raw ? decodeURIComponent(raw).toLowerCase() : 'new';
  const known = id === 'new' || !!s.sessions[id];
  // A group is known once chat has connected (a reloaded edit address waits for it); the form starts from it.
  if (!known) return <p className="detail-pane empty-state">{s.ended[id] ? t(`ended.${s.ended[id]}`) : s.status === 'connected' ? t('room.unknown') : t('chat.loading')}</p>;
  return <RoomForm key={id} id={id} />;
}

function RoomForm({ id }: { id: string }) {
  const t = useChatT();
  const navigate = useNavigate();
  const s = useSnapshot(chat);
  const isNew = id === 'new';
  const room = isNew ? undefined : s.sessions[id];
  const [subject, setSubject] = useState(room?.subject ?? '');
  const [selected, setSelected] = useState<Set<number>>(() => new Set(room?.members.filter((m) => m.jid !== chat.me).map((m) => m.userId) ?? []));
  const [term, setTerm] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const connected = s.status === 'connected';

  const q = term.trim().toLowerCase();
  const people = useMemo(() => s.contacts.filter((c) => c.jid !== s.me && (!q || c.name.toLowerCase().includes(q))), [s.contacts, s.me, q]);

  // Ended (or left) while the form was open.
  if (!isNew && !room) return <p className="detail-pane empty-state">{s.ended[id] ? t(`ended.${s.ended[id]}`) : t('room.unknown')}</p>;

  const onSelection = (keys: Selection) => {
    if (keys === 'all') setSelected(new Set(people.map((c) => c.user_id)));
    else {
      // Members hidden by the search stay chosen.
      const shown = new Set(people.map((c) => c.user_id));
      const next = new Set([...selected].filter((x) => !shown.has(x)));
      for (const k of keys) next.add(Number(k));
      setSelected(next);
    }
    setProblems((p) => p.filter((x) => x !== 'members_required'));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found: Problem[] = [];
    if (!subject.trim()) found.push('subject_required');
    else if (subject.trim().length > ROOM_SUBJECT_MAX) found.push('subject_too_long');
    if (selected.size === 0) found.push('members_required');
    else if (selected.size > ROOM_MEMBERS_MAX) found.push('too_many_members');
    setProblems(found);
    setFailure('');
    const engine = currentEngine();
    if (found.length || !engine) return;
    setBusy(true);
    try {
      const ids = [...selected];
      const jid = isNew ? await engine.createRoom(subject.trim(), ids) : (await engine.updateRoom(id, { subject: subject.trim(), memberIds: ids }), id);
      void navigate({ to: chatPath(jid) });
    } catch (err) {
      if (err instanceof ApiError && err.body.details?.length) setProblems(err.body.details.map((d) => d.message as Problem));
      else setFailure(err instanceof ApiError && err.body.message ? err.body.message : t('room.failed'));
    } finally {
      setBusy(false);
    }
  };

  const subjectProblem = problems.find((p) => p.startsWith('subject'));
  const memberProblem = problems.find((p) => !p.startsWith('subject'));
  return (
    <section className="detail-pane room-edit" aria-labelledby="room-edit-heading">
      <h2 id="room-edit-heading">{isNew ? t('room.newHeading') : t('room.editHeading', { name: room!.subject })}</h2>
      <Form onSubmit={(e) => void submit(e)} validationBehavior="aria" className="room-form">
        <TextField value={subject} onChange={(v) => { setSubject(v); setProblems((p) => p.filter((x) => !x.startsWith('subject'))); }} isRequired isInvalid={!!subjectProblem} className="field" maxLength={ROOM_SUBJECT_MAX + 50}>
          <Label>{t('room.subject')}</Label>
          <Input className="input" />
          <FieldError className="field-error">{subjectProblem ? t(`room.problem.${subjectProblem}`) : ''}</FieldError>
        </TextField>
        <fieldset className="room-members">
          <legend>{t('room.members', { count: selected.size })}</legend>
          <SearchField aria-label={t('room.find')} value={term} onChange={setTerm} className="field">
            <Input className="input" placeholder={t('room.find')} />
          </SearchField>
          <GridList
            aria-label={t('room.colleagues')}
            className="list room-people"
            selectionMode="multiple"
            selectionBehavior="toggle"
            selectedKeys={new Set([...selected].map(String))}
            onSelectionChange={onSelection}
            renderEmptyState={() => <p className="empty-state">{t('chat.noMatch')}</p>}
          >
            {people.map((c) => (
              <GridListItem key={c.user_id} id={String(c.user_id)} textValue={c.name} className="row">
                <Checkbox slot="selection" className="checkbox" aria-label={c.name}>
                  <span className="checkbox-box" aria-hidden="true" />
                </Checkbox>
                <span className="row-primary">{c.name}</span>
              </GridListItem>
            ))}
          </GridList>
          {memberProblem && (
            <p className="field-error" role="alert">
              {t(`room.problem.${memberProblem}`)}
            </p>
          )}
        </fieldset>
        {failure && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
        <div className="form-actions">
          <Button type="submit" className="btn primary" isDisabled={!connected || busy}>
            {isNew ? t('room.create') : t('room.save')}
          </Button>
          <Button className="btn" onPress={() => void navigate({ to: isNew ? `${CHAT_PATH}/new` : chatPath(id) })}>
            {t('room.cancel')}
          </Button>
        </div>
        {!connected && <p className="muted">{t('chat.offline')}</p>}
      </Form>
    </section>
  );
}
