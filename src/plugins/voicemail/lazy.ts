import i18next from 'i18next';
import { ref, subscribe } from 'valtio';
import { Navigation, ServerPush, type LazyRuns, type PaletteEntity, type ServiceLookup } from '../../kernel';
import { VOICEMAIL_SUBJECT } from '../../wire/frameConstants';
import type { voicemailTable } from './commands';
import { callBack, deleteVoicemails, download, markAllRead, onVoicemailPush, playPause, setTranslator, startRefreshing, toggleRead } from './api';
import { shownIds } from './shown';
import { palette, resetVoicemailState, vmState, VOICEMAIL_PATH, type Voicemail } from './state';
import { strings } from './strings';

export { expandTranscript, requestRefresh, setRead } from './api';
export { player } from './player';
export { strings } from './strings';
export { default as VoicemailScreen } from './ui/VoicemailScreen';

/** "Voicemail from Bob, 2 min ago". */
export function entityFor(v: Voicemail, rtf: Intl.RelativeTimeFormat, now: number): PaletteEntity {
  const mins = Math.round((new Date(v.timestamp).getTime() - now) / 60_000);
  const when = mins > -60 ? rtf.format(mins, 'minute') : mins > -1440 ? rtf.format(Math.round(mins / 60), 'hour') : rtf.format(Math.round(mins / 1440), 'day');
  const args = { id: v.id };
  return {
    id: `voicemail:${v.id}`,
    // Translated by the palette once the strings are in: built before they were, it read "entity".
    label: { key: 'voicemail:entity', values: { name: v.callerName ?? v.callerNumber, when } },
    detail: v.callerName ? v.callerNumber : undefined,
    keywords: [v.callerNumber, ...(v.status === 'UNREAD' ? [{ key: 'voicemail:unread' }] : [])],
    actions: ['open', 'playPause', 'toggleRead', 'callBack', 'download', 'delete'].map((c) => ({ command: `voicemail.${c}`, args })),
  };
}

function rebuildEntities(): void {
  const rtf = new Intl.RelativeTimeFormat(i18next.language, { numeric: 'auto', style: 'short' });
  const now = Date.now();
  palette.entities = ref((vmState.items ?? []).map((v) => entityFor(v, rtf, now)));
}

let started = false;
/** Starts the list's refresh (every 60 s) and the palette entities; returns what stops them. */
/** `ready`: the strings are in, the entry and commands may show; `failed`: they never will. */
export function start(services: ServiceLookup, ready: () => void, failed: () => void = () => undefined): () => void {
  if (started) return (failed(), () => undefined);
  started = true;
  setTranslator((key, values) => i18next.t(key, values));
  void strings().then(
    () => (started ? ready() : failed()),
    () => failed(),
  );
  let last = vmState.items;
  const unsub = subscribe(vmState, () => last !== vmState.items && ((last = vmState.items), rebuildEntities()));
  const onLanguage = () => rebuildEntities();
  i18next.on('languageChanged', onLanguage);
  const stop = startRefreshing(services);
  const pushed = services.maybe(ServerPush)?.subscribe(VOICEMAIL_SUBJECT, (body) => onVoicemailPush(services, body));
  return () => {
    started = false;
    stop();
    pushed?.dispose();
    unsub();
    i18next.off('languageChanged', onLanguage);
    resetVoicemailState();
  };
}

export function step(services: ServiceLookup, by: 1 | -1): void {
  const ids = shownIds.ids;
  if (!ids.length) return;
  const at = vmState.selectedId ? ids.indexOf(vmState.selectedId) : -1;
  const next = ids[Math.max(0, Math.min(ids.length - 1, at < 0 ? 0 : at + by))]!;
  services.get(Navigation).navigate(`${VOICEMAIL_PATH}/${next}`, { replace: true });
}

/** Deletes the ticked messages, or this one; deleting the one shown goes back to the list. */
export async function deleteSelection(services: ServiceLookup, id: string): Promise<void> {
  const ids = vmState.checked.length ? [...vmState.checked] : [id];
  const shownId = vmState.selectedId;
  if (!(await deleteVoicemails(services, ids))) return;
  if (shownId && ids.includes(shownId)) {
    vmState.selectedId = null;
    services.get(Navigation).navigate(VOICEMAIL_PATH, { replace: true });
  }
}

/** The item a command acts on: its argument, else the one shown. */
const target = (args: { readonly id?: string }): string | null => args.id ?? vmState.selectedId;

/** What each command of the table does (`go` navigates at boot). */
export const runs: LazyRuns<typeof voicemailTable> = {
  open: (ctx, args) => {
    const id = target(args);
    if (id) ctx.services.get(Navigation).navigate(`${VOICEMAIL_PATH}/${id}`);
  },
  playPause: async (ctx, args) => {
    const id = target(args);
    if (id) await playPause(ctx.services, id);
  },
  toggleRead: async (ctx, args) => {
    const id = target(args);
    if (id) await toggleRead(ctx.services, id);
  },
  markAllRead: (ctx) => markAllRead(ctx.services),
  delete: async (ctx, args) => {
    const id = target(args);
    if (id) await deleteSelection(ctx.services, id);
  },
  download: async (ctx, args) => {
    const id = target(args);
    if (id) await download(ctx.services, vmState.checked.length ? vmState.checked : [id]);
  },
  callBack: async (ctx, args) => {
    const id = target(args);
    if (id) await callBack(ctx.services, id);
  },
  next: (ctx) => step(ctx.services, 1),
  previous: (ctx) => step(ctx.services, -1),
};
