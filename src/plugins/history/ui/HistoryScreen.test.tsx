// @vitest-environment jsdom
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, Api, Kernel, KernelProvider, Navigation, Notifications, Session, type SessionInfo } from '../../../kernel';
import type { HistoryRecordWire } from '../../../wire/history';
import en from '../locales/en.json';
import HistoryScreen from './HistoryScreen';
import { historyPlugin } from '../index';
import { appNavigator, type NavigableRouter } from '../../../shell/navigator';
import { resetHistoryState } from '../state';
import { clearHistoryCache } from '../load';
import { fakeHistoryApi, wire } from '../test-fixtures';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { history: en } }, interpolation: { escapeValue: false } });
  // jsdom lays nothing out: give the virtualised list a viewport so it renders rows.
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => 400);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => 600);
  // jsdom lacks CSS.escape (focus management looks rows up by key) and scrolling.
  if (!globalThis.CSS?.escape) vi.stubGlobal('CSS', { ...globalThis.CSS, escape: (v: string) => v.replace(/["\\]/g, '\\$&') });
  window.scrollTo = () => undefined;
  // The load-more sentinel watches visibility; jsdom has no observer.
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
      takeRecords() {
        return [];
      }
    },
  );
});

beforeEach(() => resetHistoryState());
// Each test starts from an empty list cache, as a new sign-in does.
afterEach(() => (cleanup(), clearHistoryCache()));

/** `listIn`: the history API answers once it resolves. `elsewhereIn`: the other screen has loaded once it resolves. */
function setup(records: HistoryRecordWire[], search = '', held: { listIn?: Promise<void>; elsewhereIn?: Promise<void> } = {}) {
  const fake = fakeHistoryApi(records);
  const api = { ...fake, get: async <T,>(path: string, query?: Record<string, unknown>) => (await held.listIn, fake.get<T>(path, query)) };
  const kernel = new Kernel({ features: allFeatures(true) });
  const root = createRootRoute({ component: Outlet });
  const route = createRoute({
    getParentRoute: () => root,
    path: '/history',
    validateSearch: historyPlugin.routes![0]!.validateSearch!,
    component: HistoryScreen,
  });
  const elsewhere = createRoute({ getParentRoute: () => root, path: '/elsewhere', loader: () => held.elsewhereIn, component: () => <h1>Elsewhere</h1> });
  const router = createRouter({ routeTree: root.addChildren([route, elsewhere]), history: createMemoryHistory({ initialEntries: [`/history${search}`] }) });
  kernel.provide(Api, api as never);
  kernel.provide(Session, { userId: 7 } as unknown as SessionInfo);
  kernel.provide(Notifications, { toast: () => '', dismiss: () => undefined, announce: () => undefined });
  kernel.provide(Navigation, appNavigator(router as unknown as NavigableRouter));
  kernel.load([historyPlugin]);
  kernel.context.route = '/history';
  render(
    <KernelProvider kernel={kernel}>
      <RouterProvider router={router} />
    </KernelProvider>,
  );
  return { api, router, kernel };
}

const calls = [
  wire({ id: 3, cnam: 'Ada Lovelace', call_time: new Date(Date.now() - 5 * 60_000).toISOString() }),
  wire({ id: 2, cnam: null, direction: 'inbound', disposition: 'UNANSWERED', source_phone: '4155550199', duration: 0 }),
  wire({ id: 1, cnam: 'Grace Hopper', direction: 'outbound', dest_phone: '+15551230000' }),
];

describe('HistoryScreen', () => {
  it('lists calls and auto-selects the first one', async () => {
    const { router } = setup(calls);
    const list = await screen.findByRole('grid', { name: 'Calls' });
    expect(within(list).getAllByRole('row')).toHaveLength(3);
    expect(within(list).getByText('5 minutes ago')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toMatchObject({ id: 3 }));
    expect(router.state.location.href).toBe('/history?id=3');
    expect(await screen.findByRole('heading', { level: 2, name: 'Ada Lovelace' })).toBeTruthy();
  });

  it('does not pull the user back when the list comes in after they have gone to another screen, still loading', async () => {
    let listIn!: () => void;
    let elsewhereIn!: () => void;
    const { router } = setup(calls, '', { listIn: new Promise((r) => (listIn = r)), elsewhereIn: new Promise((r) => (elsewhereIn = r)) });
    await screen.findByRole('status');
    void router.navigate({ to: '/elsewhere' });
    await waitFor(() => expect(router.latestLocation.pathname).toBe('/elsewhere'));
    listIn();
    await screen.findByRole('grid', { name: 'Calls' });
    elsewhereIn();
    expect(await screen.findByRole('heading', { level: 1, name: 'Elsewhere' })).toBeTruthy();
    expect(router.state.location.href).toBe('/elsewhere');
  });

  it('marks a missed call with text, not colour alone', async () => {
    setup(calls);
    const list = await screen.findByRole('grid', { name: 'Calls' });
    const row = within(list).getByText('(415) 555-0199').closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('Missed')).toBeTruthy();
    expect(row.className).toContain('missed');
  });

  it('shows Call back disabled with its reason when calling is unavailable', async () => {
    setup(calls);
    const button = await screen.findByRole('button', { name: 'Call back' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('Calling is not available in this app.')).toBeTruthy();
  });

  it('opens the call chosen in the list', async () => {
    const { router } = setup(calls, '?id=3');
    const list = await screen.findByRole('grid', { name: 'Calls' });
    const row = within(list).getByText('Grace Hopper').closest('[role="row"]') as HTMLElement;
    fireEvent.pointerDown(row, { pointerType: 'mouse', button: 0 });
    fireEvent.pointerUp(row, { pointerType: 'mouse', button: 0 });
    fireEvent.click(row);
    await waitFor(() => expect(router.state.location.search).toMatchObject({ id: 1 }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Grace Hopper' })).toBeTruthy();
  });

  it('moves the selection with the arrow keys and opens the call with Enter', async () => {
    const { router } = setup(calls, '?id=3');
    const list = await screen.findByRole('grid', { name: 'Calls' });
    // One tab stop: the grid holds the focus and points at the selected call.
    act(() => list.focus());
    expect(document.getElementById(list.getAttribute('aria-activedescendant')!)?.textContent).toContain('Ada Lovelace');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyUp(document.activeElement!, { key: 'ArrowDown' });
    await waitFor(() => expect(router.state.location.search).toMatchObject({ id: 2 }));
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    fireEvent.keyUp(document.activeElement!, { key: 'Enter' });
    await waitFor(() => expect(document.activeElement?.id).toBe('history-detail-heading'));
    expect(document.activeElement?.textContent).toBe('(415) 555-0199');
  });

  it('on narrow screens, Back returns from the detail to the list', async () => {
    setup(calls, '?id=3');
    await screen.findByRole('heading', { level: 2, name: 'Ada Lovelace' });
    const split = document.querySelector('.split')!;
    expect(split.hasAttribute('data-has-selection')).toBe(true);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Back to calls/ })));
    expect(split.hasAttribute('data-has-selection')).toBe(false);
    await waitFor(() => expect(document.activeElement?.getAttribute('role')).toBe('grid'));
    expect(document.getElementById(document.activeElement!.getAttribute('aria-activedescendant')!)?.textContent).toContain('Ada Lovelace');
  });

  it('keeps the list in view when the first call is only auto-selected', async () => {
    const { router } = setup(calls);
    await waitFor(() => expect(router.state.location.search).toMatchObject({ id: 3 }));
    expect(document.querySelector('.split')!.hasAttribute('data-has-selection')).toBe(false);
  });

  it('searches after a pause in typing', async () => {
    const { api, router } = setup(calls);
    const input = await screen.findByRole('searchbox', { name: 'Search calls' });
    fireEvent.change(input, { target: { value: 'ada' } });
    await waitFor(() => expect(router.state.location.search).toMatchObject({ term: 'ada' }), { timeout: 2000 });
    await waitFor(() => expect(api.calls.some((c) => c.query.term === 'ada')).toBe(true));
  });

  it('sets every call type back when the last one is unchecked', async () => {
    const { router } = setup(calls, '?in=false&out=false');
    const group = await screen.findByRole('group', { name: 'Call types' });
    const missed = within(group).getByRole('checkbox', { name: 'Missed' }) as HTMLInputElement;
    expect(missed.checked).toBe(true);
    expect((within(group).getByRole('checkbox', { name: 'Incoming' }) as HTMLInputElement).checked).toBe(false);
    await act(async () => fireEvent.click(missed));
    await waitFor(() => {
      const search = router.state.location.search as Record<string, unknown>;
      expect([search.in, search.out, search.missed]).toEqual([undefined, undefined, undefined]);
    });
    for (const box of within(group).getAllByRole('checkbox')) expect((box as HTMLInputElement).checked).toBe(true);
  });

  it('switches to missed calls', async () => {
    const { api, router } = setup(calls);
    const missed = await screen.findByRole('radio', { name: 'Missed' });
    await act(async () => fireEvent.click(missed));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ filter: 'missed' }));
    await waitFor(() => expect(api.calls.some((c) => c.query.call_type === 'missed')).toBe(true));
  });

  it('explains an empty period and offers a wider one', async () => {
    const { api } = setup([]);
    expect(await screen.findByText('No calls in this period.')).toBeTruthy();
    expect(screen.getByText('Calls you make and receive appear here.')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Show the last 30 days' })));
    await waitFor(() => expect(api.calls.length).toBeGreaterThan(1));
    const last = api.calls[api.calls.length - 1]!.query;
    const days = (Date.parse(String(last.end_date)) - Date.parse(String(last.start_date))) / 86_400_000 + 1;
    expect(days).toBe(30);
  });
});
