// @vitest-environment jsdom
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { proxy } from 'valtio';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { allFeatures, Api, ApiError, Kernel, KernelProvider, Notifications, Session, type SessionInfo } from '../../../../kernel';
import { ProfileEditor, type ProfileEditorProps } from '../../../../contracts';
import en from '../../strings/en.json';
import { panelSearch, preferencesState, resetPreferencesState } from '../../state';
import { ProfilePanel } from './ProfilePanel';

beforeAll(async () => {
  // jsdom lacks CSS.escape, which the router's focus handling and React Aria use.
  if (!globalThis.CSS?.escape) vi.stubGlobal('CSS', { ...globalThis.CSS, escape: (v: string) => v.replace(/["\\]/g, '\\$&') });
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { preferences: en } }, interpolation: { escapeValue: false } });
});
afterEach(() => (cleanup(), resetPreferencesState()));

const PROFILE = {
  user_id: 7, username: 'alice', first_name: 'Alice', last_name: 'Nguyen', alias: null, avatar_id: null, avatar_href: null, email: 'alice@example.com',
  c2d_peer_type: 2, company: 'Acme', organization_id: 1, role_id: 3, extension: '1001', is_reseller_level: false, phone_numbers: [],
};
const REGIONS = { items: [{ id: 3, name: 'us-east', description: 'Ashburn', display_name: 'US East', status: 'active', network_test_server: null }], user_region_id: 3 };
const notFound = () => new ApiError(404, { error: 'not_found', message: 'No emergency address on file' });

/** The contacts' profile form as the ProfileEditor service hands it over: here a stand-in that reports what it is told. */
function StandInForm({ onDone, onDirty }: ProfileEditorProps) {
  return (
    <form aria-label="Stand-in profile form">
      <button type="button" onClick={() => onDirty?.(true, async () => (onDone(true), true))}>
        Type something
      </button>
      <button type="button" onClick={() => onDone(false)}>
        Cancel
      </button>
    </form>
  );
}

function setup(search = '?panel=profile') {
  const kernel = new Kernel({ features: allFeatures(true) });
  const get = vi.fn(async (path: string) => {
    if (path === '/v1/e911') throw notFound();
    if (path === '/v1/availability_regions') return REGIONS;
    throw notFound();
  });
  kernel.provide(Api, { get } as never);
  const session = { userId: 7, profile: proxy({ ...PROFILE }), refreshProfile: async () => undefined } as unknown as SessionInfo;
  kernel.provide(Session, session);
  kernel.provide(Notifications, { toast: () => 'toast', dismiss: () => undefined, announce: () => undefined });
  const load = vi.fn(async () => StandInForm);
  kernel.provide(ProfileEditor, { load });
  const root = createRootRoute({ component: Outlet });
  const route = createRoute({ getParentRoute: () => root, path: '/preferences', validateSearch: panelSearch, component: ProfilePanel });
  const router = createRouter({ routeTree: root.addChildren([route]), history: createMemoryHistory({ initialEntries: [`/preferences${search}`] }) });
  render(
    <KernelProvider kernel={kernel}>
      <RouterProvider router={router} />
    </KernelProvider>,
  );
  return { get, session, load, router };
}

describe('the Profile panel', () => {
  it('shows the profile, "no emergency address on file" for a 404, and the user\'s region', async () => {
    setup();
    expect(await screen.findByText('Alice Nguyen')).toBeTruthy();
    // Both come from their own requests, answered after the profile shows.
    expect(await within(screen.getByRole('region', { name: 'Emergency address (E911)' })).findByText('No emergency address on file')).toBeTruthy();
    expect(await within(screen.getByRole('region', { name: 'Availability region' })).findByText('US East')).toBeTruthy();
  });

  it('shows the session\'s copy of the profile (kept fresh app-wide) at once, and follows it', async () => {
    const { session, get } = setup();
    expect(await screen.findByText('Alice Nguyen')).toBeTruthy();
    session.profile.last_name = 'Nguyen-Park';
    expect(await screen.findByText('Alice Nguyen-Park')).toBeTruthy();
    // The panel itself does not read the profile: the app-wide loader does (profileSync.ts).
    expect(get.mock.calls.map(([path]) => path)).not.toContain('/v1/users/7');
  });

  it('"Edit profile" shows the contacts\' profile form (ProfileEditor) in a dialog, which closes when the form is done', async () => {
    const { load } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit profile' });
    expect(await within(dialog).findByRole('form', { name: 'Stand-in profile form' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a form with changes is the panel\'s unsaved form: leaving asks, and saving through the guard closes the dialog', async () => {
    setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit profile' });
    expect(preferencesState.unsaved).toBeNull();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Type something' }));
    await waitFor(() => expect(preferencesState.unsaved?.panel).toBe('profile'));
    await act(async () => void (await preferencesState.unsaved!.save()));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(preferencesState.unsaved).toBeNull();
  });

  it('&modal=edit (the own contact\'s "Edit profile") opens the dialog with the panel, and leaves the address', async () => {
    const { router } = setup('?panel=profile&modal=edit');
    expect(await screen.findByRole('dialog', { name: 'Edit profile' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toEqual({ panel: 'profile' }));
    expect(screen.getByRole('dialog', { name: 'Edit profile' })).toBeTruthy();
  });
});
