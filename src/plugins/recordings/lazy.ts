import i18next from 'i18next';
import { ref, subscribe } from 'valtio';
import { Navigation, type LazyRuns, type PaletteEntity, type ServiceLookup } from '../../kernel';
import type { recordingsTable } from './commands';
import { callBack, download, load, loadSettings, playPause, setTranslator, startRefreshing } from './api';
import { palette, recState, RECORDINGS_PATH, resetRecordingsState, type Recording } from './state';
import { strings } from './strings';

export { default as RecordingsScreen } from './ui/RecordingsScreen';
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
    resetRecordingsState();
  };
}


/** The recording a command acts on: its argument, else the one shown. */
const target = (args: { readonly id?: string }) => recState.items?.find((r) => r.id === (args.id ?? recState.selectedId));

function step(services: ServiceLookup, by: 1 | -1): void {
  const ids = recState.items?.map((r) => r.id) ?? [];
  if (!ids.length) return;
  const at = recState.selectedId ? ids.indexOf(recState.selectedId) : -1;
  const next = ids[Math.max(0, Math.min(ids.length - 1, at < 0 ? 0 : at + by))]!;
  services.get(Navigation).navigate(`${RECORDINGS_PATH}/${next}`, { replace: true });
}

/** What each command of the table does (`go` navigates at boot). */
export const runs: LazyRuns<typeof recordingsTable> = {
  open: (ctx, args) => {
    const rec = target(args);
    if (rec) ctx.services.get(Navigation).navigate(`${RECORDINGS_PATH}/${rec.id}`);
  },
  playPause: async (ctx, args) => {
    const rec = target(args);
    if (rec) await playPause(ctx.services, rec.id);
  },
  download: async (ctx, args) => {
    const rec = target(args);
    if (rec) await download(ctx.services, rec);
  },
  callBack: async (ctx, args) => {
    const rec = target(args);
    if (rec) await callBack(ctx.services, rec);
  },
  next: (ctx) => step(ctx.services, 1),
  previous: (ctx) => step(ctx.services, -1),
};
