import { Paperclip } from 'lucide-react';
import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent, type RefObject, type SyntheticEvent } from 'react';
import { useSnapshot } from 'valtio';
import { Button, DropZone, FileTrigger, isFileDropItem, Label, TextArea, TextField, type DropItem } from 'react-aria-components';
import { ACCEPTED_EXTENSIONS } from '../../../wire/media';
import { insertAtCaret } from '../emoji/emoji';
import { currentEngine } from '../engine';
import { MediaError } from '../engine/ChatEngine';
import { chatBody } from '../model/chat';
import { chatFilesProblem, formatBytes, type ChatMedia } from '../model/media';
import { chat, COMPOSE_EVENT, MESSAGE_INPUT_ID, type ComposeAction } from '../state';
import { EmojiPicker } from './EmojiPicker';
import { useChatT } from './useChatT';

interface Pending {
  id: number;
  file: File;
}

let nextId = 1;
const OFFLINE_NOTE_ID = 'chat-offline-note';

/**
 * The message input of a conversation: Enter sends, Shift+Enter adds a line; files come by the
 * Attach button, a paste or a drop, are checked at once (type and size, with a message; the text
 * typed stays), and go to ejabberd's upload service when the message is sent; emoji go in at the caret.
 * While chat is disconnected the box stays editable (a disabled box would drop the focus to the page,
 * where the keys typed next run shortcuts) and Enter queues the words; only files wait for the server.
 */
export function Composer({ jid, name, connected, inputRef, lang }: { jid: string; name: string; connected: boolean; inputRef: RefObject<HTMLTextAreaElement | null>; lang: string }) {
  const t = useChatT();
  // Read synchronously: a controlled text box fed by an asynchronous snapshot is reset to the old
  // value after each key and then set again, which throws the caret to the end (valtio's advice).
  const input = useSnapshot(chat, { sync: true }).sessions[jid]?.input ?? '';
  const [files, setFiles] = useState<Pending[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const [picker, setPicker] = useState(false);
  const selection = useRef<[number, number] | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // "Message ▸ Bob": the caret waits here. After the frame: the shell gives a new screen's heading
  // the focus in the same commit, after this effect.
  const focusHere = useSnapshot(chat).focusComposer === jid;
  useEffect(() => {
    if (!focusHere) return;
    const frame = requestAnimationFrame(() => {
      inputRef.current?.focus();
      if (chat.focusComposer === jid) chat.focusComposer = null;
    });
    return () => cancelAnimationFrame(frame);
  }, [focusHere, jid, inputRef]);

  // "Insert emoji" and "Attach files to the message" from the palette.
  useEffect(() => {
    const on = (ev: Event) => {
      const what = (ev as CustomEvent<ComposeAction>).detail;
      if (what === 'emoji') setPicker(true);
      else if (what === 'attach') fileInput.current?.click();
    };
    window.addEventListener(COMPOSE_EVENT, on);
    return () => window.removeEventListener(COMPOSE_EVENT, on);
  }, []);

  const add = (list: readonly File[]) => {
    if (!list.length) return;
    const all = [...files.map((f) => f.file), ...list];
    const problem = chatFilesProblem(all);
    if (problem) {
      // Which file: the first one with a problem of its own, else (too large together) the last added.
      const culprit = list.find((f) => chatFilesProblem([f])) ?? list.at(-1)!;
      setError(t(`media.problem.${problem}`, { name: culprit.name }));
      return;
    }
    setError(null);
    setFiles(all.map((file) => files.find((p) => p.file === file) ?? { id: nextId++, file }));
  };

  const send = async () => {
    const e = currentEngine();
    const body = chatBody(input);
    if (!e || uploading || (!body && !files.length)) return;
    const media: ChatMedia[] = [];
    try {
      for (const f of files) {
        setUploading(f.file.name);
        media.push(await e.upload(f.file));
      }
    } catch (err) {
      const problem = err instanceof MediaError ? err.problem : 'uploadFailed';
      // The file that failed is the first one not uploaded; all of them stay listed, the text stays typed.
      setError(t(`media.problem.${problem}`, { name: files[media.length]?.file.name ?? '' }));
      return;
    } finally {
      setUploading(null);
    }
    // Every file is on the server: the words first, then one message per file.
    if (body) e.send(jid, body);
    for (const m of media) e.send(jid, '', m);
    setFiles([]);
    setError(null);
    inputRef.current?.focus();
  };

  const onKeyDown = (ev: KeyboardEvent) => {
    if (ev.key === 'Enter' && !ev.shiftKey && !ev.nativeEvent.isComposing) {
      ev.preventDefault();
      void send();
    }
  };
  const onPaste = (ev: ClipboardEvent) => {
    const pasted = [...ev.clipboardData.files];
    if (!pasted.length) return;
    ev.preventDefault();
    add(pasted);
  };
  const onDrop = async (ev: { items: DropItem[] }) => add(await Promise.all(ev.items.filter(isFileDropItem).map((i) => i.getFile())));

  // Where the user left the caret (typing, arrows, a click): a re-render that sets the value moves the
  // browser's caret to the end, so it is remembered here rather than read when the picker opens.
  const keepSelection = (ev: SyntheticEvent<HTMLTextAreaElement>) => {
    selection.current = [ev.currentTarget.selectionStart, ev.currentTarget.selectionEnd];
  };

  const insertEmoji = (char: string) => {
    const el = inputRef.current;
    const [start, end] = selection.current ?? [input.length, input.length];
    const next = insertAtCaret(input, start, end, char);
    selection.current = [next.caret, next.caret];
    currentEngine()?.typing(jid, next.value);
    // After the picker has closed and given focus back to its button: the caret goes after the emoji.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        el?.focus();
        el?.setSelectionRange(next.caret, next.caret);
      }),
    );
  };

  return (
    <DropZone aria-label={t('media.drop')} onDrop={(e) => void onDrop(e)} isDisabled={!connected} className="chat-compose">
      {files.length > 0 && (
        <ul aria-label={t('media.pending')} className="chat-pending">
          {files.map((f) => (
            <li key={f.id}>
              <span>
                {f.file.name} <span className="muted">· {formatBytes(f.file.size, lang)}</span>
              </span>{' '}
              <Button className="btn icon" aria-label={t('media.remove', { name: f.file.name })} isDisabled={!!uploading} onPress={() => (setFiles(files.filter((x) => x.id !== f.id)), setError(null))}>
                <span aria-hidden="true">✕</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <p className="chat-media-error" role="alert">
        {error ?? ''}
      </p>
      <p className="muted chat-uploading" role="status">
        {uploading ? t('media.uploading', { name: uploading }) : ''}
      </p>
      <div className="chat-input">
        <FileTrigger ref={fileInput} allowsMultiple acceptedFileTypes={[...ACCEPTED_EXTENSIONS]} onSelect={(l) => l && add([...l])}>
          <Button className="btn icon" aria-label={t('media.attach')} isDisabled={!connected || !!uploading}>
            <Paperclip size={18} aria-hidden="true" focusable="false" />
          </Button>
        </FileTrigger>
        <TextField aria-describedby={connected ? undefined : OFFLINE_NOTE_ID} value={input} onChange={(v) => currentEngine()?.typing(jid, v)} className="field chat-field">
          <Label className="visually-hidden">{t('chat.input', { name })}</Label>
          <TextArea ref={inputRef} id={MESSAGE_INPUT_ID} className="input" rows={2} onKeyDown={onKeyDown} onPaste={onPaste} onSelect={keepSelection} placeholder={t('chat.placeholder')} />
        </TextField>
        <EmojiPicker
          isOpen={picker}
          onOpenChange={setPicker}
          onPick={insertEmoji}
        />
        <Button className="btn primary" onPress={() => void send()} isDisabled={!!uploading || (!chatBody(input) && !files.length)}>
          {t('chat.send')}
        </Button>
      </div>
      {!connected && (
        <p className="muted" id={OFFLINE_NOTE_ID}>
          {t('chat.offlineQueued')}
        </p>
      )}
    </DropZone>
  );
}
