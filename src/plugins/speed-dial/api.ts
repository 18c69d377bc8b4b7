import { Api, ApiError, Dialogs, Notifications, Session, type ServiceLookup } from '../../kernel';
import { TelephonyApi } from '../../contracts';
import { SpeedDial, SpeedDialList } from '../../wire/speedDial';
import { log } from './log';
import { entryName, inputOf, moved, serverErrors, withPositions, type FormErrors } from './model';
import { sdState, type FormStart } from './state';

const base = (s: ServiceLookup) => `/v1/users/${s.get(Session).userId}/speed-dials`;

let loading: Promise<void> | null = null;
/** The list again (one request at a time: a second caller waits for the one under way). */
export function load(s: ServiceLookup): Promise<void> {
  loading ??= (async () => {
    try {
      const list = await s.get(Api).get('/v1/speed-dials', undefined, SpeedDialList);
      Object.assign(sdState, { items: list.items, max: list.max_org_speed_dials, total: list.total_org_speed_dials, loadFailed: false });
    } catch (err) {
      sdState.loadFailed = sdState.items === null;
      log.error('list failed', err);
    } finally {
      loading = null;
    }
  })();
  return loading;
}

/** Saves the form (a new entry or a change); the refusal is put at its field, and nothing typed is lost. */
export async function save(s: ServiceLookup, v: FormStart): Promise<FormErrors | null> {
  const api = s.get(Api);
  try {
    if (v.id === null) await api.post(base(s), inputOf(v), SpeedDial);
    else await api.put(`${base(s)}/${v.id}`, inputOf(v), SpeedDial);
  } catch (err) {
    if (err instanceof ApiError) return serverErrors(err.status, err.body, v);
    log.error('save failed', err);
    return { form: { key: 'errors.saveFailed' } };
  }
  await load(s);
  return null;
}

/** Deletes one of the user's own entries after a confirmation that names it. */
export async function confirmDelete(s: ServiceLookup, id: string | undefined): Promise<boolean> {
  const e = sdState.items?.find((x) => String(x.id) === id);
  if (!e?.canEdit) return false;
  const { confirmed } = await s.get(Dialogs).confirm({ titleKey: 'speed-dial:delete.title', messageKey: 'speed-dial:delete.message', values: { name: entryName(e) }, confirmLabelKey: 'speed-dial:delete.confirm', tone: 'danger' });
  return confirmed && remove(s, e.id);
}

export async function remove(s: ServiceLookup, id: number): Promise<boolean> {
  try {
    await s.get(Api).delete(`${base(s)}/${id}`);
    await load(s);
    return true;
  } catch (err) {
    log.error('delete failed', err);
    s.get(Notifications).toast({ tone: 'error', titleKey: 'speed-dial:errors.deleteFailed' });
    return false;
  }
}

/**
 * Moves an own entry one place up or down: shown at once, each changed position saved with PUT; a
 * failed save reloads the list as the server has it.
 */
export async function move(s: ServiceLookup, id: number, by: -1 | 1): Promise<boolean> {
  const items = sdState.items;
  const changes = items && moved(items, id, by);
  if (!items || !changes) return false;
  sdState.items = withPositions(items, changes);
  const api = s.get(Api);
  try {
    for (const { entry, position } of changes) {
      await api.put(`${base(s)}/${entry.id}`, { id: entry.id, position, shortcut: entry.shortcut, dial_string: entry.dial_string, label: entry.label, visibility: entry.visibility }, SpeedDial);
    }
    return true;
  } catch (err) {
    log.error('move failed', err);
    s.get(Notifications).toast({ tone: 'error', titleKey: 'speed-dial:errors.moveFailed' });
    await load(s);
    return false;
  }
}

/** Dials an entry's number (commas and DTMF included), named by its label. */
export async function call(s: ServiceLookup, e: SpeedDial): Promise<void> {
  try {
    await s.maybe(TelephonyApi)?.call(e.dial_string, { displayName: e.label || undefined });
  } catch (err) {
    log.error('call failed', err);
  }
}
