import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Api, ApiError, Notifications, Session, type ServiceLookup } from '../../kernel';
import type { SpeedDial } from '../../wire/speedDial';
import { load, move, save } from './api';
import { resolve } from './lazy';
import { entityFor, formFor, inputOf, mayShare, moved, newForm, resolveIn, serverErrors, validateForm, withPositions } from './model';
import { resetSpeedDialState, sdState } from './state';

const entry = (over: Partial<SpeedDial>): SpeedDial => ({
  id: 1, user_id: 7, organization_id: 1, visibility: 'personal', position: 0, shortcut: 1, dial_string: '1002', label: 'Bob Martinez',
  canEdit: true, modified: '2026-11-27T10:00:00.000Z', isShared: false, owner_name: 'Alice Nguyen', ...over,
});
const mine = [entry({ id: 1, position: 0, shortcut: 1 }), entry({ id: 2, position: 1, shortcut: 2, dial_string: '1001*', label: 'My voicemail' }), entry({ id: 3, position: 2, shortcut: 12, dial_string: '1001,,12#', label: 'Alice Nguyen' })];
const shared = entry({ id: 9, user_id: 1, position: 0, shortcut: 10, visibility: 'shared', isShared: true, canEdit: false, dial_string: '4155550100', label: 'Conference line', owner_name: 'Olivia Bennett' });
const list = [...mine, shared];

describe('speed-dial rules', () => {
  it('resolves a shortcut among what the user can dial, their own and the shared ones', () => {
    expect(resolveIn(list, '12')).toBe('1001,,12#');
    expect(resolveIn(list, '10')).toBe('4155550100');
    expect(resolveIn(list, '13')).toBeNull();
    expect(resolveIn(list, 'x')).toBeNull();
  });

  it('Alt+Down swaps an own entry with the next of the own ones and renumbers only what changed', () => {
    expect(moved(list, 1, 1)?.map((c) => [c.entry.id, c.position])).toEqual([[2, 0], [1, 1]]);
    expect(moved(list, 3, -1)?.map((c) => [c.entry.id, c.position])).toEqual([[3, 1], [2, 2]]);
    // The last own entry does not move below the colleagues' shared ones, nor the first above the top.
    expect(moved(list, 3, 1)).toBeNull();
    expect(moved(list, 1, -1)).toBeNull();
    // A colleague's shared entry is read-only.
    expect(moved(list, 9, -1)).toBeNull();
    // Equal positions (entries made elsewhere) become distinct ones.
    const same = [entry({ id: 1, position: 5 }), entry({ id: 2, position: 5 })];
    expect(moved(same, 2, -1)?.map((c) => [c.entry.id, c.position])).toEqual([[2, 0], [1, 1]]);
    expect(withPositions(list, moved(list, 1, 1)!).map((e) => e.id)).toEqual([2, 1, 3, 9]);
  });

  it('every entry is a palette entity "#12 · Alice Nguyen" standing for #12; only own ones can be edited or deleted', () => {
    expect(entityFor(mine[2]!)).toEqual({
      id: 'speed-dial:3',
      label: '#12 · Alice Nguyen',
      detail: '1001,,12#',
      keywords: [],
      standsFor: '#12',
      actions: [
        { command: 'speed-dial.call', args: { id: '3' } },
        { command: 'speed-dial.edit', args: { id: '3' } },
        { command: 'speed-dial.delete', args: { id: '3' } },
      ],
    });
    expect(entityFor(shared)).toMatchObject({ label: '#10 · Conference line', keywords: ['Olivia Bennett'], actions: [{ command: 'speed-dial.call' }] });
    expect(entityFor(entry({ label: '' })).label).toBe('#1 · 1002');
  });

  it('only account owners and administrators share (role 1 and 2, not 3 or 4)', () => {
    expect([1, 2, 3, 4, null].map(mayShare)).toEqual([true, true, false, false, false]);
  });

  it('checks the form as the server does, field by field', () => {
    expect(validateForm(newForm({ number: '+1 (415) 555-0100,,12#' }))).toEqual({});
    expect(validateForm({ ...newForm({ number: '1002' }), shortcut: '#12' })).toEqual({});
    expect(validateForm({ ...newForm(), shortcut: '0' })).toEqual({ shortcut: { key: 'errors.shortcutRange', values: { max: 9999 } }, number: { key: 'errors.numberRequired' } });
    expect(validateForm({ ...newForm({ number: '1002' }), shortcut: '10000' }).shortcut?.key).toBe('errors.shortcutRange');
    expect(validateForm(newForm({ number: 'call bob' })).number?.key).toBe('errors.numberChars');
    expect(validateForm(newForm({ number: ',,12' })).number?.key).toBe('errors.numberRequired');
    expect(validateForm(newForm({ number: '1'.repeat(65) })).number).toEqual({ key: 'errors.numberLong', values: { max: 64 } });
    expect(validateForm(newForm({ number: '1', label: 'x'.repeat(101) })).label).toEqual({ key: 'errors.labelLong', values: { max: 100 } });
  });

  it('sends what was typed: an empty shortcut asks the server for the first free one', () => {
    expect(inputOf(newForm({ number: ' 1002 ', label: ' Bob ' }))).toEqual({ shortcut: null, dial_string: '1002', label: 'Bob', visibility: 'personal' });
    expect(inputOf({ ...formFor(mine[2]!), shortcut: '#14', shared: true })).toEqual({ id: 3, shortcut: 14, dial_string: '1001,,12#', label: 'Alice Nguyen', visibility: 'shared' });
  });

  it("puts the server's refusals at their field: the 400 naming the shortcut at the shortcut", () => {
    const v = { ...newForm({ number: '1003' }), shortcut: '12' };
    expect(serverErrors(400, { error: 'shortcut_in_use', message: 'Shortcut #12 is already in use' }, v)).toEqual({ shortcut: { key: 'errors.shortcutInUse', values: { shortcut: '12' } } });
    expect(serverErrors(400, { error: 'speed_dial_limit', message: 'Your organisation has reached its maximum of 100 speed dials' }, v)).toEqual({ form: { key: 'errors.limit', values: { max: '100' } } });
    expect(serverErrors(403, { error: 'forbidden', message: 'Standard users cannot share speed dials' }, v)).toEqual({ shared: { key: 'errors.sharedNotAllowed' } });
    expect(serverErrors(400, { error: 'validation_failed', message: 'Invalid speed dial', details: [{ path: 'dial_string', message: 'x' }] }, v)).toEqual({ number: { key: 'errors.numberChars' } });
    expect(serverErrors(500, { error: 'internal_error', message: 'Internal server error' }, v)).toEqual({ form: { key: 'errors.saveFailed' } });
  });
});

describe('speed-dial api', () => {
  const calls: Array<[string, string, unknown]> = [];
  let server: SpeedDial[];
  let refuse: ApiError | null;
  const services = (): ServiceLookup => {
    const api = {
      get: vi.fn(async (path: string) => (calls.push(['GET', path, null]), { items: server, max_org_speed_dials: 100, total_org_speed_dials: server.length })),
      put: vi.fn(async (path: string, body: unknown) => {
        calls.push(['PUT', path, body]);
        if (refuse) throw refuse;
        return body;
      }),
      post: vi.fn(async (path: string, body: unknown) => {
        calls.push(['POST', path, body]);
        if (refuse) throw refuse;
        return body;
      }),
    };
    const map = new Map<unknown, unknown>([
      [Api, api],
      [Session, { userId: 7 }],
      [Notifications, { toast: vi.fn(), announce: vi.fn(), dismiss: vi.fn() }],
    ]);
    return { get: (k: unknown) => map.get(k), maybe: (k: unknown) => map.get(k), has: (k: unknown) => map.has(k) } as unknown as ServiceLookup;
  };
  beforeEach(() => {
    resetSpeedDialState();
    calls.length = 0;
    server = [...list];
    refuse = null;
  });

  it('loads the list with the organisation count and maximum', async () => {
    await load(services());
    expect(sdState).toMatchObject({ max: 100, total: 4, loadFailed: false });
    expect(sdState.items?.map((e) => e.shortcut)).toEqual([1, 2, 12, 10]);
  });

  it('resolves from the list it has, and loads again once for a shortcut it does not know', async () => {
    const s = services();
    await load(s);
    calls.length = 0;
    expect(await resolve(s, '12')).toBe('1001,,12#');
    expect(calls).toEqual([]);
    server = [...list, entry({ id: 4, shortcut: 40, dial_string: '1004', position: 3 })];
    expect(await resolve(s, '40')).toBe('1004');
    expect(calls).toEqual([['GET', '/v1/speed-dials', null]]);
    expect(await resolve(s, '41')).toBeNull();
  });

  it('a move is shown at once and each changed position is saved with PUT', async () => {
    const s = services();
    await load(s);
    calls.length = 0;
    expect(await move(s, 1, 1)).toBe(true);
    expect(sdState.items?.map((e) => e.id)).toEqual([2, 1, 3, 9]);
    expect(calls.map(([m, p, b]) => [m, p, (b as { position: number }).position])).toEqual([
      ['PUT', '/v1/users/7/speed-dials/2', 0],
      ['PUT', '/v1/users/7/speed-dials/1', 1],
    ]);
    expect(calls[0]![2]).toEqual({ id: 2, position: 0, shortcut: 2, dial_string: '1001*', label: 'My voicemail', visibility: 'personal' });
  });

  it('a refused save answers the field errors and keeps nothing from reloading', async () => {
    const s = services();
    refuse = new ApiError(400, { error: 'shortcut_in_use', message: 'Shortcut #12 is already in use', details: [{ path: 'shortcut', message: 'Shortcut #12 is already in use' }] });
    const v = { ...newForm({ number: '1003', label: 'Carol' }), shortcut: '12' };
    expect(await save(s, v)).toEqual({ shortcut: { key: 'errors.shortcutInUse', values: { shortcut: '12' } } });
    expect(calls).toEqual([['POST', '/v1/users/7/speed-dials', { shortcut: 12, dial_string: '1003', label: 'Carol', visibility: 'personal' }]]);
    refuse = null;
    expect(await save(s, v)).toBeNull();
    expect(calls.at(-1)?.[0]).toBe('GET');
  });
});
