import { Paperclip } from 'lucide-react';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Button, FileTrigger, GridList, GridListItem, Input, Label, SearchField, TextArea, TextField, ToggleButton, ToggleButtonGroup, type Key } from 'react-aria-components';
import { ref, useSnapshot } from 'valtio';
import { useKernel } from '../../../kernel';
import { filterSessions, type SessionGroup } from '../model/chat';
import './chat.css';
import { attachmentProblem, counter, enterSends, formatNumber, newTextProblem, pastCutoff, recipients, SMS_MAX_CHARS, usNumber } from '../texts/rules';
import { cutoffs, loadOlder, mediaUrl, openConversation, sendInConversation, sendText, toggleTextMute } from '../texts/api';
import { initialDraft, texts, TEXTS_PATH, textPath, type PendingFile, type TextConversationState } from '../texts/state';
import { useTextsT } from './useTextsT';
import type { TextMedia, TextMessage } from '../../../wire/texts';
import './texts.css';

type Tx = ReturnType<typeof useTextsT>;

const nameOf = (members: readonly string[]) => members.map(formatNumber).join(', ');
const attachProblemKey = (files: readonly PendingFile[], mms: boolean) => attachmentProblem(files.map((f) => ({ name: f.file.name, size: f.file.size })), mms);
let fileSeq = 0;
// ref(): a File must stay itself, not become a valtio proxy (its getters need the real object).
const pending = (list: FileList | null): PendingFile[] => [...(list ?? [])].map((file) => ({ id: `f${++fileSeq}`, file: ref(file) }));

function time(ts: string, lang: string): string {
  const d = new Date(ts);
  const today = new Date().toDateString() === d.toDateString();
  return new Intl.DateTimeFormat(lang, today ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }).format(d);
}

function TextsBar({ selected }: { selected: string | null }) {
  const tx = useTextsT();
  const s = useSnapshot(texts);
  const navigate = useNavigate();
  const [group, setGroup] = useState<SessionGroup>('all');
  const [term, setTerm] = useState('');
  // Search matches the numbers, as typed digits or formatted.
  const list = useMemo(
    () =>
      filterSessions(
        Object.values(s.conversations).map((c) => ({ ...c, name: nameOf(c.members), members: [...c.members, ...c.members.map((m) => m.replace(/\D/g, ''))], muted: s.muted.includes(c.jid) })),
        group,
        term,
      ),
    [s.conversations, s.muted, group, term],
  );
  return (
    <section className="list-pane chat-bar" aria-labelledby="texts-bar-heading">
      <h2 id="texts-bar-heading" className="visually-hidden">
        {tx('list')}
      </h2>
      <div className="filter-bar">
        <ToggleButtonGroup aria-label={tx('filters')} selectionMode="single" disallowEmptySelection selectedKeys={[group]} onSelectionChange={(k) => setGroup([...k][0] as SessionGroup)} className="segmented">
          {(['all', 'unread', 'muted'] as const).map((g) => (
            <ToggleButton key={g} id={g} className="btn seg">
              {tx(`group.${g}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <SearchField aria-label={tx('search')} value={term} onChange={setTerm} className="field chat-search">
          <Input className="input" placeholder={tx('search')} />
        </SearchField>
        <Button className="btn" isDisabled={!s.dids.length} onPress={() => void navigate({ to: `${TEXTS_PATH}/new` })}>
          {tx('new')}
        </Button>
      </div>
      {list.length === 0 ? (
        <p className="empty-state">{Object.keys(s.conversations).length ? tx('noMatch') : s.dids.length ? tx('empty') : tx('noNumber')}</p>
      ) : (
        <GridList aria-label={tx('list')} className="list" selectionMode="single" selectedKeys={selected ? [selected] : []} onAction={(k: Key) => void navigate({ to: textPath(String(k)) })}>
          {list.map((c) => {
            const last = c.messages.at(-1);
            return (
              <GridListItem key={c.jid} id={c.jid} textValue={c.name} className={`row chat-row${c.unread ? ' unread' : ''}`}>
                <div className="row-main">
                  <span className="row-primary">{c.name}</span>
                  <span className="row-secondary">
                    {c.kind === 'group_sms' ? `${tx('groupText')} · ` : ''}
                    {last ? `${last.direction === 'out' ? tx('you') + ': ' : ''}${last.body.trim() || (last.media.length ? tx('attachment') : '')}`.slice(0, 80) : ''}
                  </span>
                </div>
                {c.muted && <span className="row-meta">{tx('muted')}</span>}
                {c.unread > 0 && !c.muted && (
                  <span className="badge" aria-label={tx('unread', { count: c.unread })}>
                    <span aria-hidden="true">{c.unread > 99 ? '99+' : c.unread}</span>
                  </span>
                )}
              </GridListItem>
            );
          })}
        </GridList>
      )}
    </section>
  );
}

/** An attachment, fetched with the bearer token (served to its owner only): image, video or file. */
function Media({ m }: { m: TextMedia }) {
  const tx = useTextsT();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let revoke: string | null = null;
    let live = true;
    void mediaUrl(m.url).then(
      (u) => {
        if (live) setUrl((revoke = u));
        else URL.revokeObjectURL(u);
      },
      () => undefined,
    );
    return () => {
      live = false;
      if (revoke) URL.revokeObjectURL(revoke);
    };
  }, [m.url]);
  if (m.type === 'image') return url ? <img className="text-media" src={url} alt={tx('image', { name: m.ogName })} /> : <span className="muted">{m.ogName}</span>;
  if (m.type === 'video') return url ? <video className="text-media" src={url} controls aria-label={tx('video', { name: m.ogName })} /> : <span className="muted">{m.ogName}</span>;
  return (
    <a className="text-file" href={url ?? undefined} download={m.ogName} aria-label={tx('download', { name: m.ogName })}>
      <Paperclip className="file-glyph" size={14} aria-hidden="true" focusable="false" /> {m.ogName}
    </a>
  );
}

function Message({ m, lang, name }: { m: TextMessage; lang: string; name: string }) {
  const tx = useTextsT();
  const mine = m.direction === 'out';
  return (
    <li className={`chat-msg${mine ? ' mine' : ''}`}>
      <span className="chat-meta">
        <span className="chat-author">{mine ? tx('you') : name}</span> <time dateTime={m.sent_at}>{time(m.sent_at, lang)}</time>
      </span>
      {m.body.trim() && <span className="chat-body">{m.body}</span>}
      {m.media.map((x) => (
        <Media key={x.id} m={x} />
      ))}
      {mine && <span className={`chat-status status-${m.status}`}>{tx(`status.${m.status}`)}</span>}
    </li>
  );
}

/** The files chosen for the next text, each removable; and the Attach button (MMS). */
function Attachments({ files, onChange, mms }: { files: readonly PendingFile[]; onChange(f: PendingFile[]): void; mms: boolean }) {
  const tx = useTextsT();
  return (
    <div className="text-attachments">
      <FileTrigger allowsMultiple onSelect={(l) => onChange([...files, ...pending(l)])}>
        <Button className="btn" isDisabled={!mms}>
          {tx('attach')}
        </Button>
      </FileTrigger>
      {files.length > 0 && (
        <ul aria-label={tx('attachments')} className="text-files">
          {files.map((f) => (
            <li key={f.id}>
              {f.file.name}{' '}
              <Button className="btn" aria-label={tx('removeFile', { name: f.file.name })} onPress={() => onChange(files.filter((x) => x.id !== f.id))}>
                ✕
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The character counter within 100 of the limit; over it, it says so (and Enter no longer sends). */
function Counter({ length }: { length: number }) {
  const tx = useTextsT();
  const left = counter(length);
  return (
    <p className={`text-counter${left !== null && left < 0 ? ' over' : ''}`} aria-live="polite">
      {left === null ? '' : left >= 0 ? tx('left', { count: left }) : tx('over', { count: -left })}
    </p>
  );
}

function ErrorLine({ error, tx }: { error: string | null; tx: Tx }) {
  return (
    <p className="text-error" role="alert">
      {error ? tx(`errors.${error}`) : ''}
    </p>
  );
}

function Conversation({ jid }: { jid: string }) {
  const tx = useTextsT();
  const kernel = useKernel();
  const s = useSnapshot(texts);
  const conv = s.conversations[jid] as TextConversationState | undefined;
  const lang = kernel.context.language;
  const logRef = useRef<HTMLOListElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    void openConversation(jid);
    return () => void openConversation(null);
  }, [jid, s.status]);
  const count = conv?.messages.length ?? 0;
  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [count]);
  if (!conv) return <p className="detail-pane empty-state">{s.status === 'ready' ? tx('notFound') : tx('loading')}</p>;
  const live = texts.conversations[jid]!;
  const name = nameOf(conv.members);
  const mms = s.dids.find((d) => d.number === conv.did)?.mms_enabled ?? false;
  const now = Date.now();
  // Messages older than the user's cut-off for this kind are not shown (730 days: never cut off).
  const shown = conv.messages.filter((m) => !pastCutoff(conv.kind, Date.parse(m.sent_at), cutoffs(), now));
  const send = async () => {
    const problem = attachProblemKey(live.files, mms);
    if (problem) {
      live.error = problem;
      return;
    }
    if (await sendInConversation(jid)) inputRef.current?.focus();
  };
  const onKeyDown = (ev: KeyboardEvent) => {
    // Enter sends unless over the limit; Shift+Enter adds a line.
    if (ev.key === 'Enter' && !ev.shiftKey && !ev.nativeEvent.isComposing) {
      ev.preventDefault();
      if (enterSends(live.input.length)) void send();
    }
  };
  return (
    <section className="detail-pane chat-conversation" aria-labelledby="text-conv-heading">
      <header className="chat-head">
        <h2 id="text-conv-heading">{name}</h2>
        <span className="muted">
          {conv.kind === 'group_sms' ? `${tx('groupText')} · ` : ''}
          {tx('fromNumber', { number: formatNumber(conv.did) })}
        </span>
        <Button className="btn" onPress={() => void toggleTextMute(jid)}>
          {s.muted.includes(jid) ? tx('unmute') : tx('mute')}
        </Button>
      </header>
      {conv.loaded && !conv.complete && (
        <Button className="btn chat-older" isDisabled={conv.pending} onPress={() => void loadOlder(jid)}>
          {conv.pending ? tx('loading') : tx('older')}
        </Button>
      )}
      <ol ref={logRef} className="chat-log" aria-label={tx('log', { name })} tabIndex={0}>
        {shown.map((m) => (
          <Message key={m.id} m={m as TextMessage} lang={lang} name={name} />
        ))}
      </ol>
      <ErrorLine error={conv.error} tx={tx} />
      <Attachments files={conv.files} mms={mms} onChange={(f) => ((live.files = f), (live.error = null))} />
      <div className="chat-input">
        <TextField value={conv.input} onChange={(v) => (live.input = v)} className="field chat-field">
          <Label className="visually-hidden">{tx('input', { name })}</Label>
          <TextArea ref={inputRef} className="input" rows={2} onKeyDown={onKeyDown} placeholder={tx('placeholder')} />
        </TextField>
        <Button className="btn primary" onPress={() => void send()} isDisabled={conv.sending || conv.input.length > SMS_MAX_CHARS}>
          {conv.sending ? tx('sending') : tx('send')}
        </Button>
      </div>
      <Counter length={conv.input.length} />
    </section>
  );
}

function NewText() {
  const tx = useTextsT();
  const s = useSnapshot(texts);
  const d = s.draft;
  const draft = texts.draft;
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { to?: string };
  useEffect(() => {
    if (!search.to) return;
    // "Text ▸ number" and a contact's Text action: the conversation with that number when there is one.
    const n = usNumber(search.to);
    const existing = Object.values(texts.conversations).find((c) => c.kind === 'sms' && c.members[0] === n);
    if (existing) void navigate({ to: textPath(existing.jid), replace: true });
    else texts.draft.to = search.to;
  }, [search.to, navigate]);
  const from = d.from || s.dids[0]?.number || '';
  const did = s.dids.find((x) => x.number === from);
  const r = recipients(d.to, [], { sender: from, currentUser: s.dids.map((x) => x.number) }, s.banned);
  const send = async () => {
    if (draft.sending) return;
    const problem = newTextProblem(r, draft.input, draft.files.length > 0) ?? attachProblemKey(draft.files, did?.mms_enabled ?? false);
    if (problem) {
      draft.error = problem;
      return;
    }
    draft.sending = true;
    draft.error = null;
    const res = await sendText(from, r.numbers, draft.input, draft.files);
    draft.sending = false;
    if ('error' in res) {
      // The draft stays as typed.
      draft.error = res.error;
      return;
    }
    texts.draft = initialDraft(from);
    void navigate({ to: textPath(res.jid) });
  };
  const onKeyDown = (ev: KeyboardEvent) => {
    if (ev.key === 'Enter' && !ev.shiftKey && !ev.nativeEvent.isComposing) {
      ev.preventDefault();
      if (enterSends(draft.input.length)) void send();
    }
  };
  if (!s.dids.length) return <p className="detail-pane empty-state">{tx('noNumber')}</p>;
  return (
    <section className="detail-pane chat-new text-new" aria-labelledby="text-new-heading">
      <h2 id="text-new-heading">{tx('newHeading')}</h2>
      {s.dids.length > 1 ? (
        <label className="field">
          <span>{tx('from')}</span>
          <select className="input" value={from} onChange={(e) => (draft.from = e.target.value)}>
            {s.dids.map((x) => (
              <option key={x.number} value={x.number}>
                {formatNumber(x.number)} {x.label}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p>{tx('fromNumber', { number: formatNumber(from) })}</p>
      )}
      <TextField value={d.to} onChange={(v) => ((draft.to = v), (draft.error = null))} className="field" autoFocus>
        <Label>{tx('to')}</Label>
        <Input className="input" placeholder={tx('toHelp')} onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()} />
      </TextField>
      <p className="muted" aria-live="polite">
        {r.ignored.length ? tx('ignored', { numbers: r.ignored.join(', ') }) : ''}
        {r.numbers.length > 1 ? ` ${tx('groupNotice')}` : ''}
      </p>
      <TextField value={d.input} onChange={(v) => ((draft.input = v), (draft.error = null))} className="field chat-field">
        <Label>{tx('message')}</Label>
        <TextArea className="input" rows={3} onKeyDown={onKeyDown} placeholder={tx('placeholder')} />
      </TextField>
      <Counter length={d.input.length} />
      <Attachments files={d.files} mms={did?.mms_enabled ?? false} onChange={(f) => ((draft.files = f), (draft.error = null))} />
      <ErrorLine error={d.error} tx={tx} />
      <Button className="btn primary" onPress={() => void send()} isDisabled={d.sending}>
        {d.sending ? tx('sending') : tx('send')}
      </Button>
    </section>
  );
}

/** `message`, `message/new` and `message/{id}`: the texts list and a conversation or the new-text form. */
export default function TextsScreen() {
  const tx = useTextsT();
  const { id: raw } = useParams({ strict: false }) as { id?: string };
  const isNew = raw === 'new';
  const jid = raw && !isNew ? decodeURIComponent(raw) : null;
  return (
    <div className="split chat-screen" data-has-selection={jid || isNew ? true : undefined}>
      <TextsBar selected={jid} />
      {isNew ? <NewText /> : jid ? <Conversation key={jid} jid={jid} /> : <p className="detail-pane empty-state">{tx('pickOne')}</p>}
    </div>
  );
}
