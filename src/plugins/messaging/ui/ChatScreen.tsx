import { useNavigate, useParams, useRouterState } from '@tanstack/react-router';
import { lazy, memo, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button, GridList, GridListItem, Input, Menu, MenuItem, MenuTrigger, Popover, SearchField, ToggleButton, ToggleButtonGroup, type Key } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useCommand, useKernel, useMaybeService } from '../../../kernel';
import { AdHocInvitesApi, type AdHocInvitesService } from '../../../contracts';
import { currentEngine } from '../engine';
import { filterSessions, messagePreview, uiKind, type SessionGroup } from '../model/chat';
import { rosterGroupOf } from '../model/sessions';
import { chat, chatPath, CHAT_PATH, ROOM_NEW_PATH, roomPath, type ChatSessionState, type PeerPresence } from '../state';
import { Composer } from './Composer';
import { MessageLog, type InviteView } from './MessageLog';
import { MessageMedia } from './MessageMedia';
import { reuseRows, type SessionRow } from './sessionRows';
import { useChatT } from './useChatT';
import './chat.css';

function PresenceTag({ p }: { p: PeerPresence | undefined }) {
  const t = useChatT();
  const state = p?.state ?? 'unavailable';
  const label = state === 'custom' && p?.text ? p.text : t(`presence.${state}`);
  return (
    <span className={`presence presence-${state}`}>
      <span className="presence-dot" aria-hidden="true" />
      {label}
    </span>
  );
}

/** Whose presence a row shows: the other person (a group of two looks like a chat). */
function peerOf(x: { jid: string; type: ChatSessionState['type']; members: readonly { jid: string }[] }, me: string): string {
  return x.type === 'groupchat' ? (x.members.find((m) => m.jid !== me)?.jid ?? x.jid) : x.jid;
}


function SessionsBar({ selected }: { selected: string | null }) {
  const t = useChatT();
  const navigate = useNavigate();
  const [group, setGroup] = useState<SessionGroup>('all');
  const [term, setTerm] = useState('');
  // The filters do not read chat: a message that arrives re-renders the list below, not them.
  return (
    <section className="list-pane chat-bar" aria-labelledby="chat-bar-heading">
      <h2 id="chat-bar-heading" className="visually-hidden">
        {t('chat.sessions')}
      </h2>
      <div className="filter-bar">
        <ToggleButtonGroup aria-label={t('chat.groups')} selectionMode="single" disallowEmptySelection selectedKeys={[group]} onSelectionChange={(k) => setGroup([...k][0] as SessionGroup)} className="segmented">
          {(['all', 'unread', 'muted'] as const).map((g) => (
            <ToggleButton key={g} id={g} className="btn seg">
              {t(`chat.group.${g}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <SearchField aria-label={t('chat.search')} value={term} onChange={setTerm} className="field chat-search">
          <Input className="input" placeholder={t('chat.search')} />
        </SearchField>
        <Button className="btn" onPress={() => void navigate({ to: `${CHAT_PATH}/new` })}>
          {t('chat.new')}
        </Button>
        <Button className="btn" onPress={() => void navigate({ to: ROOM_NEW_PATH, search: { type: 'muc' } })}>
          {t('chat.newGroup')}
        </Button>
      </div>
      <SessionList selected={selected} group={group} term={term} />
    </section>
  );
}

function SessionList({ selected, group, term }: { selected: string | null; group: SessionGroup; term: string }) {
  const t = useChatT();
  const s = useSnapshot(chat);
  const cache = useRef(new Map<string, SessionRow>());
  const previous = useRef<SessionRow[]>([]);
  // Pinned first, then recent; closed chats leave the bar until something new arrives (or a search finds them).
  const list = useMemo(() => {
    const built = reuseRows(
      cache.current,
      // Only what the bar shows (not `...x`): the typed input and the peer's chat states must not re-render it.
      Object.values(s.sessions).map((x) => ({
        id: x.jid,
        jid: x.jid,
        type: x.type,
        name: x.name,
        subject: x.subject,
        unread: x.unread,
        muted: x.muted,
        lastActivity: x.lastActivity,
        last: x.messages.at(-1),
        members: x.type === 'groupchat' ? x.members.map((m) => m.name) : [x.name],
        people: x.members,
        roster: rosterGroupOf(s.rosterGroups, x.jid),
        presence: s.presence[peerOf(x, s.me)],
      })),
    );
    cache.current = built.cache;
    const found = filterSessions(built.rows, group, term);
    const shown = term.trim() ? found : found.filter((x) => x.roster !== 'closed');
    const next = [...shown.filter((x) => x.roster === 'pin'), ...shown.filter((x) => x.roster !== 'pin')];
    // A receipt or a message's archive id changes no row: the same list, nothing rendered again.
    if (next.length === previous.current.length && next.every((r, i) => r === previous.current[i])) return previous.current;
    return (previous.current = next);
  }, [s.sessions, s.rosterGroups, s.presence, s.me, group, term]);
  // Behind what is urgent: a message that arrives is painted in the open conversation first, its
  // row here (preview, order) in the render after, which that frame need not wait for.
  const shownList = useDeferredValue(list);
  if (list.length === 0) return <p className="empty-state">{Object.keys(s.sessions).length ? t('chat.noMatch') : t('chat.empty')}</p>;
  return <SessionGrid list={shownList} selected={selected} />;
}

/** The list itself, rendered again only for another list or selection (not for the urgent render of a change). */
const SessionGrid = memo(function SessionGrid({ list, selected }: { list: SessionRow[]; selected: string | null }) {
  const t = useChatT();
  const navigate = useNavigate();
  return (
    <GridList
      aria-label={t('chat.sessions')}
      className="list"
      selectionMode="single"
      selectedKeys={selected ? [selected] : []}
      onAction={(k: Key) => void navigate({ to: chatPath(String(k)) })}
      items={list}
      // Rows are rendered per row object (see reuseRows): again only for one that changed, or new words.
      dependencies={[t]}
    >
      {(x) => (
        <GridListItem id={x.jid} textValue={x.name} className={`row chat-row${x.unread ? ' unread' : ''}`}>
          <div className="row-main">
            <span className="row-primary">{x.name}</span>
            <span className="row-secondary">
              {uiKind(x.type, x.members.length) === 'gchat' ? <span>{t('chat.gchat', { count: x.members.length })}</span> : <PresenceTag p={x.presence} />}
              {x.last ? ` · ${x.last.mine ? t('chat.you') + ': ' : ''}${messagePreview(x.last).slice(0, 80)}` : ''}
            </span>
          </div>
          {x.roster === 'pin' && <span className="row-meta">{t('chat.pinned')}</span>}
          {x.muted && <span className="row-meta">{t('chat.muted')}</span>}
          <SessionActions session={x} pinned={x.roster === 'pin'} />
          {x.unread > 0 && !x.muted && (
            <span className="badge" aria-label={t('chat.unread', { count: x.unread })}>
              <span aria-hidden="true">{x.unread > 99 ? '99+' : x.unread}</span>
            </span>
          )}
        </GridListItem>
      )}
    </GridList>
  );
});

/** The message box re-renders for what it shows (its text, the connection), not for the peer's chat states. */
const MessageBox = memo(Composer);

/** "Meet now" with the colleague on screen; disabled, it says why beside it (the meetings' rule). */
function MeetNowButton() {
  const t = useChatT();
  const bound = useCommand('messaging.meetNow');
  const reasonId = useId();
  if (!bound.command || !bound.visible) return null;
  const reason = bound.enablement === true ? null : bound.enablement;
  return (
    <>
      <Button className="btn" isDisabled={reason !== null} aria-describedby={reason ? reasonId : undefined} onPress={() => void bound.run({}, 'button')}>
        {t(bound.command.titleKey)}
      </Button>
      {reason && (
        <span id={reasonId} className="muted chat-meet-reason">
          {t(reason.reasonKey, reason.values)}
        </span>
      )}
    </>
  );
}

/** The meetings' invite card, loaded once (with its strings) the first time a conversation shows. */
let inviteView: InviteView | null = null;
function useInviteView(adhoc: AdHocInvitesService | undefined): InviteView | undefined {
  if (!adhoc) return undefined;
  inviteView ??= lazy(() => adhoc.card().then((c) => ({ default: c })));
  return inviteView;
}

function Conversation({ jid }: { jid: string }) {
  const t = useChatT();
  const kernel = useKernel();
  const s = useSnapshot(chat);
  const session = s.sessions[jid] as ChatSessionState | undefined;
  const contact = s.contacts.find((c) => c.jid === jid);
  const navigate = useNavigate();
  const lang = kernel.context.language;
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const name = session?.name ?? contact?.name ?? jid;
  const group = session?.type === 'groupchat';
  const Invite = useInviteView(useMaybeService(AdHocInvitesApi));

  useEffect(() => {
    const e = currentEngine();
    if (!e) return;
    e.setOpen(jid);
    return () => e.setOpen(null);
  }, [jid]);
  useEffect(() => {
    if (s.status === 'connected') void currentEngine()?.hydrate(jid);
  }, [jid, s.status]);

  const connected = s.status === 'connected';
  // A group that ended (or that one is not in): say so rather than offer an input.
  // (Groups are known once connected: until then a reloaded group address just waits.)
  if (!session && (s.ended[jid] || (s.status === 'connected' && jid.split('@')[1]?.startsWith('conference.')))) {
    return <p className="detail-pane empty-state">{s.ended[jid] ? t(`ended.${s.ended[jid]}`) : t('room.unknown')}</p>;
  }
  const composing = session?.peerComposing === 'composing' ? t('chat.composing', { name }) : session?.peerComposing === 'paused' ? t('chat.paused', { name }) : '';

  return (
    <section className="detail-pane chat-conversation" aria-labelledby="chat-conv-heading">
      <header className="chat-head">
        <h2 id="chat-conv-heading">{name}</h2>
        {group ? (
          <>
            <span>{t('chat.gchat', { count: session!.members.length })}</span>
            <Button className="btn" onPress={() => void navigate({ to: roomPath(jid) })}>
              {t('room.edit')}
            </Button>
            <SessionActions session={session!} pinned={rosterGroupOf(s.rosterGroups, jid) === 'pin'} />
          </>
        ) : (
          <>
            <PresenceTag p={s.presence[jid]} />
            <MeetNowButton />
          </>
        )}
      </header>
      {group && (
        <details className="chat-members">
          <summary>{t('room.occupants', { count: session!.members.length })}</summary>
          <ul aria-label={t('room.occupantsList')}>
            {session!.members.map((m) => (
              <li key={m.jid}>
                <span className="row-primary">{m.jid === s.me ? t('room.me', { name: m.name }) : m.name}</span> <PresenceTag p={m.jid === s.me ? { state: s.own, text: s.ownText } : s.presence[m.jid]} />{' '}
                <span className="muted">
                  {t(`room.affiliation.${m.affiliation}`)} · {t(`room.role.${m.role}`)}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {session && !session.history.complete && (
        <Button className="btn chat-older" isDisabled={session.history.pending || !connected} onPress={() => void currentEngine()?.loadOlder(jid)}>
          {session.history.pending ? t('chat.loading') : t('chat.older')}
        </Button>
      )}
      <MessageLog jid={jid} name={name} lang={lang} Media={MessageMedia} Invite={Invite} />
      <p className="chat-composing" role="status">
        {composing}
      </p>
      <MessageBox jid={jid} name={name} connected={connected} inputRef={inputRef} lang={lang} />
    </section>
  );
}

function NewChat() {
  const t = useChatT();
  const s = useSnapshot(chat);
  const navigate = useNavigate();
  const [term, setTerm] = useState('');
  const q = term.trim().toLowerCase();
  // Only company contacts other than oneself (the server's list already leaves oneself out).
  const list = s.contacts.filter((c) => c.jid !== s.me && (!q || c.name.toLowerCase().includes(q)));
  return (
    <section className="detail-pane chat-new" aria-labelledby="chat-new-heading">
      <h2 id="chat-new-heading">{t('chat.newHeading')}</h2>
      <Button className="btn chat-new-group" onPress={() => void navigate({ to: ROOM_NEW_PATH, search: { type: 'muc' } })}>
        {t('chat.newGroup')}
      </Button>
      <SearchField aria-label={t('chat.pick')} value={term} onChange={setTerm} className="field" autoFocus>
        <Input className="input" placeholder={t('chat.pick')} />
      </SearchField>
      <GridList aria-label={t('chat.colleagues')} className="list chat-colleagues" onAction={(k: Key) => void navigate({ to: chatPath(String(k)) })} renderEmptyState={() => <p className="empty-state">{t('chat.noMatch')}</p>}>
        {list.map((c) => (
          <GridListItem key={c.jid} id={c.jid} textValue={c.name} className="row">
            <div className="row-main">
              <span className="row-primary">{c.name}</span>
              <span className="row-secondary">
                <PresenceTag p={s.presence[c.jid]} />
              </span>
            </div>
          </GridListItem>
        ))}
      </GridList>
    </section>
  );
}

/** Per-session actions: pin or unpin, mute or unmute, close; leave for groups. */
function SessionActions({ session, pinned }: { session: Pick<ChatSessionState, 'jid' | 'name' | 'muted' | 'type'>; pinned: boolean }) {
  const t = useChatT();
  const navigate = useNavigate();
  const onAction = (k: Key) => {
    void currentEngine()
      ?.sessionAction(k as 'toggleMute' | 'pin' | 'close' | 'leave', session.jid)
      .then((gone) => gone && chat.open === session.jid && void navigate({ to: CHAT_PATH }))
      .catch(() => undefined);
  };
  return (
    <MenuTrigger>
      <Button className="btn icon" aria-label={t('actions.label', { name: session.name })}>
        <span aria-hidden="true">⋯</span>
      </Button>
      <Popover className="popover" placement="bottom end">
        <Menu className="menu" aria-label={t('actions.label', { name: session.name })} onAction={onAction}>
          <MenuItem id="pin" className="menu-item">
            {pinned ? t('actions.unpin') : t('actions.pin')}
          </MenuItem>
          <MenuItem id="toggleMute" className="menu-item">
            {session.muted ? t('actions.unmute') : t('actions.mute')}
          </MenuItem>
          <MenuItem id="close" className="menu-item">
            {t('actions.close')}
          </MenuItem>
          {session.type === 'groupchat' && (
            <MenuItem id="leave" className="menu-item">
              {t('actions.leave')}
            </MenuItem>
          )}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

/** `chat`, `chat/new` and `chat/{jid}`: the messages bar and the conversation or the new-chat picker. */
export default function ChatScreen() {
  const t = useChatT();
  const { jid: raw } = useParams({ strict: false }) as { jid?: string };
  const pathname = useRouterState({ select: (r) => r.location.pathname });
  // chat/new/private: the same one-to-one picker.
  const isNew = pathname === `${CHAT_PATH}/new` || pathname === `${CHAT_PATH}/new/private`;
  const jid = raw && !isNew ? decodeURIComponent(raw).toLowerCase() : null;
  const status = useSnapshot(chat).status;
  if (status === 'disabled') return <p className="empty-state">{t('chat.disabled')}</p>;
  return (
    <div className="split chat-screen" data-has-selection={jid || isNew ? true : undefined}>
      <SessionsBar selected={jid} />
      {isNew ? <NewChat /> : jid ? <Conversation key={jid} jid={jid} /> : <p className="detail-pane empty-state">{t('chat.pickOne')}</p>}
    </div>
  );
}
