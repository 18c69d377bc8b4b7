// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { proxy } from 'valtio';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { allFeatures, Api, ApiError, Kernel, KernelProvider, Notifications, Session, type SessionInfo, type ToastInput } from '../../../../kernel';
import en from '../../strings/en.json';
import { ProfilePanel } from './ProfilePanel';

beforeAll(async () => {
  // jsdom lacks CSS.escape, which the form's validation looks fields up with.
  if (!globalThis.CSS?.escape) vi.stubGlobal('CSS', { ...globalThis.CSS, escape: (v: string) => v.replace(/["\\]/g, '\\$&') });
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { preferences: en } }, interpolation: { escapeValue: false } });
});
afterEach(cleanup);

const PROFILE = {
  user_id: 7, username: 'alice', first_name: 'Alice', last_name: 'Nguyen', alias: null, avatar_id: null, avatar_href: null, email: 'alice@example.com',
  c2d_peer_type: 2, company: 'Acme', organization_id: 1, role_id: 3, extension: '1001', is_reseller_level: false, phone_numbers: [],
};
const REGIONS = { items: [{ id: 3, name: 'us-east', description: 'Ashburn', display_name: 'US East', status: 'active', network_test_server: null }], user_region_id: 3 };
const notFound = () => new ApiError(404, { error: 'not_found', message: 'No emergency address on file' });

function setup(opts: { patch?: (body: unknown) => Promise<unknown> } = {}) {
  const kernel = new Kernel({ features: allFeatures(true) });
  const get = vi.fn(async (path: string) => {
    if (path === '/v1/e911') throw notFound();
    if (path === '/v1/availability_regions') return REGIONS;
    throw notFound();
  });
  const patch = vi.fn(async (_path: string, body: unknown) => (opts.patch ? opts.patch(body) : { ...PROFILE, ...(body as object) }));
  kernel.provide(Api, { get, patch } as never);
  const session = { userId: 7, profile: proxy({ ...PROFILE }), refreshProfile: async () => undefined } as unknown as SessionInfo;
  kernel.provide(Session, session);
  const toast = vi.fn((_t: ToastInput) => 'toast');
  kernel.provide(Notifications, { toast, dismiss: () => undefined, announce: () => undefined });
  render(
    <KernelProvider kernel={kernel}>
      <ProfilePanel />
    </KernelProvider>,
  );
  return { get, patch, toast, session };
}

describe('the Profile panel', () => {
  it('shows the profile, "no emergency address on file" for a 404, and the user\'s region', async () => {
    setup();
    expect(await screen.findByText('Alice Nguyen')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Emergency address (E911)' })).getByText('No emergency address on file')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Availability region' })).getByText('US East')).toBeTruthy();
  });

  it('shows the session\'s copy of the profile (kept fresh app-wide) at once, and follows it', async () => {
    const { session, get } = setup();
    expect(screen.getByText('Alice Nguyen')).toBeTruthy();
    session.profile.last_name = 'Nguyen-Park';
    expect(await screen.findByText('Alice Nguyen-Park')).toBeTruthy();
    // The panel itself does not read the profile: the app-wide loader does (profileSync.ts).
    expect(get.mock.calls.map(([path]) => path)).not.toContain('/v1/users/7');
  });

  it('a refused save keeps the modal open, shows the problem at its field, and says so with the catalogue\'s title', async () => {
    const { patch, toast } = setup({
      patch: async () => {
        throw new ApiError(400, { error: 'validation_failed', message: 'Invalid profile', details: [{ path: 'email', message: 'Enter a valid e-mail address.' }] });
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit profile' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Company/ }), { target: { value: 'Acme Research' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patch).toHaveBeenCalledWith('/v1/users/7', { company: 'Acme Research' }, expect.anything()));
    expect(await within(dialog).findByText('Enter a valid e-mail address.')).toBeTruthy();
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ tone: 'error', titleKey: 'preferences:profile.saveFailedTitle', messageKey: 'preferences:profile.checkFields' }));
    expect(screen.getByRole('dialog', { name: 'Edit profile' })).toBeTruthy();
  });

  it('a save that fails otherwise says it in the server\'s words, or asks to try again', async () => {
    const { toast } = setup({ patch: async () => Promise.reject(new ApiError(409, { error: 'conflict', message: 'E-mail already in use' })) });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit profile' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Company/ }), { target: { value: 'Acme Research' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith(expect.objectContaining({ titleKey: 'preferences:profile.saveFailedTitle', message: 'E-mail already in use' })));
  });
});
