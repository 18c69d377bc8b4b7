import i18next from 'i18next';
import { ref, subscribe } from 'valtio';
import { Navigation, type CommandContext, type PaletteEntity, type ServiceLookup } from '../../kernel';
import { callBack, download, load, loadSettings, playPause, setTranslator, startRefreshing } from './data';
import { palette, recState, RECORDINGS_PATH, type Recording } from './state';
import { strings } from './strings';

export { default as RecordingsScreen } from './RecordingsScreen';
export { strings } from './strings';

/** "Recording with Grace Whitfield, 2 days ago". */
export function entityFor(r: Recording, rtf: Intl.RelativeTimeFormat, now: number): PaletteEntity {
  const mins = Math.round((new Date(r.timestamp).getTime() - now) / 60_000);
  const when = mins > -60 ? rtf.format(mins, 'minute') : mins > -1440 ? rtf.format(Math.round(mins / 60), 'hour') : rtf.format(Math.round(mins / 1440), 'day');
  const args = { id: r.id };
  return {
    id: `recordings:${r.id}`,
    // Translated by the palette once the strings are in (built before them, it would read "entity").
    label: { key: 'recordings:entity', values: { name: r.cnam ?? r.phoneNumber, when } },
    detail: r.cnam ? r.phoneNumber : undefined,
    keywords: [r.phoneNumber],
    actions: ['open', 'playPause', 'callBack', 'download'].map((c) => ({ command: `recordings.${c}`, args })),
  };
}

function rebuild(): void {
  const rtf = new Intl.RelativeTimeFormat(i18next.language, { numeric: 'auto', style: 'short' });
  const now = Date.now();
  palette.entities = ref((recState.items ?? []).map((r) => entityFor(r, rtf, now)));
}

let started = false;
/** `settled`: called once whether the user may see recordings is known (and published). */
export function start(services: ServiceLookup, setVisible: (v: boolean) => void, settled: () => void = () => undefined): () => void {
  if (started) return (settled(), () => undefined);
  started = true;
  setTranslator((k) => i18next.t(k));
  let last = recState.items;
  let stringsIn = false;
  const unsubItems = subscribe(recState, () => {
    setVisible(stringsIn && recState.visible);
    if (last !== recState.items) {
      last = recState.items;
      rebuild();
    }
  });
  i18next.on('languageChanged', rebuild);
  const stringsLoaded = strings().then(() => {
    stringsIn = true;
    setVisible(started && recState.visible);
  });
  const settingsLoaded = loadSettings(services).then(() => {
    if (recState.visible) void load(services);
  });
  // valtio tells subscribers a tick later: publish here, so that whoever waits on `settled` sees it.
  void Promise.allSettled([stringsLoaded, settingsLoaded]).then(() => {
    setVisible(started && stringsIn && recState.visible);
    settled();
  });
  const stop = startRefreshing(services);
  return () => {
    started = false;
    stop();
    unsubItems();
    i18next.off('languageChanged', rebuild);
    Object.assign(recState, { visible: false, items: null, total: 0, loadFailed: false, selectedId: null });
    palette.entities = ref([]);
  };
}


export async function run(name: string, ctx: CommandContext, args: Readonly<Record<string, unknown>>): Promise<void> {
  const s = ctx.services;
  await strings();
  const nav = s.get(Navigation);
  if (name === 'go') return nav.navigate(RECORDINGS_PATH);
  if (name === 'next' || name === 'previous') {
    const ids = recState.items?.map((r) => r.id) ?? [];
    if (!ids.length) return;
    const at = recState.selectedId ? ids.indexOf(recState.selectedId) : -1;
    const next = ids[Math.max(0, Math.min(ids.length - 1, at < 0 ? 0 : at + (name === 'next' ? 1 : -1)))]!;
    return nav.navigate(`${RECORDINGS_PATH}/${next}`, { replace: true });
  }
  const id = targetId(args);
  const rec = recState.items?.find((r) => r.id === id);
  if (!id || !rec) return;
  if (name === 'open') return nav.navigate(`${RECORDINGS_PATH}/${id}`);
  if (name === 'playPause') return playPause(s, id);
  if (name === 'download') return download(s, rec);
  if (name === 'callBack') return callBack(s, rec);
}

/** The item a command acts on: its argument, else the one shown. */
function targetId(args: Readonly<Record<string, unknown>>): string | null {
  return typeof args.id === 'string' ? args.id : recState.selectedId;
}
