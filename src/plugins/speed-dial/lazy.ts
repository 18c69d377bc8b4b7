import { ref, subscribe } from 'valtio';
import type { LazyRuns, ServiceLookup } from '../../kernel';
import type { speedDialTable } from './commands';
import { call, confirmDelete, load } from './api';
import { entityFor, formFor, newForm, resolveIn } from './model';
import { palette, resetSpeedDialState, sdState } from './state';
import { strings } from './strings';

export { strings } from './strings';
export { default as SpeedDialScreen } from './ui/SpeedDialScreen';
export { default as Overlays } from './ui/Overlays';

const rebuild = () => (palette.entities = ref((sdState.items ?? []).map(entityFor)));

let started = false;
/** Loads the list and keeps the palette's entities in step with it; returns what stops both. */
export function start(services: ServiceLookup): () => void {
  if (started) return () => undefined;
  started = true;
  let last = sdState.items;
  const unsub = subscribe(sdState, () => last !== sdState.items && ((last = sdState.items), rebuild()));
  void strings();
  void load(services);
  return () => {
    started = false;
    unsub();
    resetSpeedDialState();
  };
}

/** `#12` dialled: the entry's dial string; a shortcut not in the list loads it again once (made elsewhere since). */
export async function resolve(services: ServiceLookup, shortcut: string): Promise<string | null> {
  const known = sdState.items && resolveIn(sdState.items, shortcut);
  if (known) return known;
  await load(services);
  return resolveIn(sdState.items ?? [], shortcut);
}

const entryOf = (id: string | undefined) => sdState.items?.find((e) => String(e.id) === id);

/** What each command of the table does (`go` navigates at boot). */
export const runs: LazyRuns<typeof speedDialTable> = {
  new: () => {
    sdState.panelOpen = false;
    sdState.form = newForm();
  },
  add: (_ctx, args) => {
    sdState.panelOpen = false;
    sdState.form = newForm(args);
  },
  panel: () => {
    sdState.panelOpen = true;
  },
  call: async (ctx, args) => {
    const e = entryOf(args.id);
    if (e) await call(ctx.services, e);
  },
  edit: (_ctx, args) => {
    const e = entryOf(args.id);
    if (e?.canEdit) sdState.form = formFor(e);
  },
  delete: async (ctx, args) => {
    await confirmDelete(ctx.services, args.id);
  },
};
