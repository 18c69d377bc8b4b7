import { memo, Suspense, useEffect, useRef, type ComponentType } from 'react';
import { Button } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { currentEngine } from '../engine';
import { messagePreview, visibleBody, type ChatMessage } from '../model/chat';
import { chatCutoffKind, withinCutoff } from '../model/cutoff';
import type { ChatMedia } from '../model/media';
import { ADHOC_INVITE_NS, type AdHocInviteCardProps } from '../../../contracts';
import { chat, type ChatSessionState } from '../state';
import { cutoffs } from '../texts/api';
import { messageTime } from './messageTime';
import { useChatT } from './useChatT';

type T = ReturnType<typeof useChatT>;
export type MediaView = ComponentType<{ media: ChatMedia; lang: string }>;
export type InviteView = ComponentType<AdHocInviteCardProps>;

/** Each status's words, looked up once per render rather than once per message. */
function statusLabels(t: T): Record<NonNullable<ChatMessage['status']> | 'sending', string> {
  return { sending: t('status.sending'), delivered: t('status.delivered'), received: t('status.received'), failed: t('status.failed'), cancel: t('status.cancel') };
}

/*
 * One message of the log. Memoised: a new message or a receipt re-renders the log, and only the rows
 * whose message (a valtio snapshot: the same object while it is unchanged) or words changed are
 * rendered again, not every row.
 */
const MessageRow = memo(function MessageRow({ m, jid, author, lang, status, t, Media, Invite }: { m: ChatMessage; jid: string; author: string; lang: string; status: string | null; t: T; Media?: MediaView; Invite?: InviteView }) {
  // An ad-hoc invite shows as the meetings' card (its state, Accept and Decline) in place of its text.
  const invite = Invite && m.payload?.ns === ADHOC_INVITE_NS ? m.payload : null;
  // Without a view for files, a file's message shows its body (the file's address) as text.
  const body = invite ? '' : Media ? visibleBody(m) : m.body;
  return (
    <li className={`chat-msg${m.mine ? ' mine' : ''}`}>
      <span className="chat-meta">
        <span className="chat-author">{author}</span> <time dateTime={new Date(m.timestamp).toISOString()}>{messageTime(m.timestamp, lang)}</time>
      </span>
      {body && <span className="chat-body">{m.body}</span>}
      {m.media && Media && <Media media={m.media} lang={lang} />}
      {invite && Invite && (
        // Until the card is in, the invite's readable text.
        <Suspense fallback={<span className="chat-body">{m.body}</span>}>
          <Invite attrs={invite.attrs} mine={m.mine} body={m.body} />
        </Suspense>
      )}
      {m.mine && <span className={`chat-status status-${m.status ?? 'sending'}`}>{status}</span>}
      {m.mine && m.status === 'failed' && (
        // Named with the message: a list of unsent messages is not a list of identical "Retry" buttons.
        <Button className="btn chat-retry" aria-label={t('status.retryMessage', { body: messagePreview(m).slice(0, 60) })} onPress={() => currentEngine()?.retry(jid, m.id)}>
          {t('status.retry')}
        </Button>
      )}
    </li>
  );
});

/**
 * The conversation's messages, subscribed on their own: a new message, a receipt or an older page
 * re-renders this list (and in it only the rows that changed), not the header, members and message
 * box around it; typing in the box or the peer's chat states do not re-render it. Measured with
 * bench/chat.ts: in the peer's page, from the message's arrival on the socket to its row in the DOM,
 * median 305 → 36 ms (100 messages on screen, 2 cores at load average ~11).
 */
export function MessageLog({ jid, name, lang, Media, Invite }: { jid: string; name: string; lang: string; Media?: MediaView; Invite?: InviteView }) {
  const t = useChatT();
  const s = useSnapshot(chat);
  const session = s.sessions[jid] as ChatSessionState | undefined;
  const logRef = useRef<HTMLOListElement>(null);
  const group = session?.type === 'groupchat';
  const you = t('chat.you');
  const author = (m: ChatMessage) => (m.mine ? you : group ? (session!.members.find((x) => x.jid === m.from)?.name ?? m.from.split('@')[0]!) : name);
  const labels = statusLabels(t);
  // Messages past the user's cut-off for this kind of conversation are not shown.
  const kind = chatCutoffKind(group ? 'groupchat' : 'chat');
  const shown = session ? withinCutoff(session.messages, kind, cutoffs(), Date.now()) : [];
  // A new last message scrolls to the bottom; an older page keeps what was on screen where it was.
  const newest = session?.messages.at(-1)?.id;
  const oldest = session?.messages[0]?.id;
  const heightBefore = useRef(0);
  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [newest]);
  useEffect(() => {
    const el = logRef.current;
    if (el && heightBefore.current) el.scrollTop += el.scrollHeight - heightBefore.current;
    heightBefore.current = 0;
  }, [oldest]);
  // Scrolling up to the top (mouse, or Home / Page Up in the focused log) loads the next older page.
  const onScroll = () => {
    const el = logRef.current;
    const live = chat.sessions[jid];
    if (!el || el.scrollTop > 24 || !live || live.history.complete || live.history.pending) return;
    // Older pages would be past the cut-off too: nothing more to show.
    const first = live.messages[0];
    if (first && withinCutoff([first], kind, cutoffs(), Date.now()).length === 0) return;
    heightBefore.current = el.scrollHeight;
    void currentEngine()?.loadOlder(jid);
  };
  return (
    <ol ref={logRef} className="chat-log" aria-label={t('chat.log', { name })} tabIndex={0} onScroll={onScroll}>
      {shown.map((m) => (
        <MessageRow key={m.id} m={m as ChatMessage} jid={jid} author={author(m as ChatMessage)} lang={lang} status={m.mine ? labels[m.status ?? 'sending'] : null} t={t} Media={Media} Invite={Invite} />
      ))}
    </ol>
  );
}
