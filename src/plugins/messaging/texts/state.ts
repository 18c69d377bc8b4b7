import { proxy, useSnapshot } from 'valtio';
// Types only: the wire module (with libphonenumber-js) loads with the screens, not at boot.
import type { MessagingDid, TextConversation, TextMessage } from '../../../wire/texts';

/** A file chosen for the next text: uploaded when the text is sent. */
export interface PendingFile {
  id: string;
  file: File;
}

export interface TextConversationState {
  jid: string;
  kind: TextConversation['kind'];
  did: string;
  members: string[];
  /** Oldest first. */
  messages: TextMessage[];
  unread: number;
  /** Nothing older on the server. */
  complete: boolean;
  loaded: boolean;
  pending: boolean;
  lastActivity: number;
  /** The draft: kept when a send fails. */
  input: string;
  files: PendingFile[];
  /** texts.errors.<key> of the last refusal, shown until the next try. */
  error: string | null;
  sending: boolean;
}

/** The new-text form, empty; `from`: the number it sends from ('': the user's first). */
export const initialDraft = (from: string) => ({ to: '', input: '', from, files: [] as PendingFile[], error: null as string | null, sending: false });

/** Texts before anything is loaded: the store starts so, and returns to it when the plugin stops. */
export const initialTextsState = () => ({
  status: 'off' as 'off' | 'loading' | 'ready' | 'error',
  dids: [] as MessagingDid[],
  banned: [] as string[],
  conversations: {} as Record<string, TextConversationState>,
  /** The conversation on screen. */
  open: null as string | null,
  /** The new-text form's draft, kept across a failed send. */
  draft: initialDraft(''),
  /** Muted conversations (jids), saved for every device (preference uc-texts-muted). */
  muted: [] as string[],
});

/** Texts (SMS/MMS): `api.ts` writes it; the screens, badge, palette and commands read it. */
export const texts = proxy(initialTextsState());

export function resetTexts(): void {
  Object.assign(texts, initialTextsState());
}

export const TEXTS_PATH = '/message';
export const textPath = (jid: string) => `${TEXTS_PATH}/${encodeURIComponent(jid)}`;
/** A new text to this number; the screen opens the conversation with it instead when there is one. */
export const newTextPath = (number: string) => `${TEXTS_PATH}/new?to=${encodeURIComponent(number)}`;

/** Unread texts: the navigation badge (muted conversations left out, as chat does). */
export function useTextsUnread(): number {
  const { conversations: c, muted } = useSnapshot(texts);
  let n = 0;
  for (const k in c) if (!muted.includes(k)) n += c[k]!.unread;
  return n;
}

/** A US number as people read it, without libphonenumber (the palette's labels at boot). */
export function displayNumber(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}
