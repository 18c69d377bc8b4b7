import i18next from 'i18next';
import { ref, subscribe } from 'valtio';
import { Navigation, type CommandContext, type PaletteEntity, type ServiceLookup } from '../../kernel';
import { callBack, deleteVoicemails, download, markAllRead, playPause, setTranslator, startRefreshing, toggleRead } from './data';
import { shownIds } from './shown';
import { palette, vmState, VOICEMAIL_PATH, type Voicemail } from './state';
import { strings } from './strings';

export { expandTranscript, requestRefresh, setRead } from './data';
export { player } from './player';
export { strings } from './strings';
export { default as VoicemailScreen } from './VoicemailScreen';

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
  return () => {
    started = false;
    stop();
    unsub();
    i18next.off('languageChanged', onLanguage);
    Object.assign(vmState, { items: null, loadFailed: false, selectedId: null, checked: [], expanded: [] });
    palette.entities = ref([]);
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

/** Every command of the manifest runs here (the manifest only names them). */
export async function run(name: string, ctx: CommandContext, args: Readonly<Record<string, unknown>>): Promise<void> {
  const s = ctx.services;
  await strings();
  if (name === 'go') return s.get(Navigation).navigate(VOICEMAIL_PATH);
  if (name === 'markAllRead') return markAllRead(s);
  if (name === 'next' || name === 'previous') return step(s, name === 'next' ? 1 : -1);
  const id = targetId(args);
  if (!id) return;
  switch (name) {
    case 'open':
      return s.get(Navigation).navigate(`${VOICEMAIL_PATH}/${id}`);
    case 'playPause':
      return playPause(s, id);
    case 'toggleRead':
      return toggleRead(s, id);
    case 'delete':
      return deleteSelection(s, id);
    case 'download':
      return download(s, vmState.checked.length ? vmState.checked : [id]);
    case 'callBack':
      return callBack(s, id);
  }
}

/** The item a command acts on: its argument, else the one shown. */
function targetId(args: Readonly<Record<string, unknown>>): string | null {
  return typeof args.id === 'string' ? args.id : vmState.selectedId;
}
