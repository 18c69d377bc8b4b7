// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, Api, Dialogs, Kernel, KernelProvider, Navigation, Notifications, Preferences, Session, type SessionInfo, ApiError } from '../../../kernel';
import { indexRowToTsv, type ContactIndexRow, type ContactWire } from '../../../wire/contacts';
import { OwnProfileForm } from './ContactForm';
import ContactsScreen from './ContactsScreen';
import { directory, toEntry } from '../directory';
import { contactQueries } from '../queryCache';
import { contactsPlugin } from '../index';
import en from '../locales/en.json';
import screenEn from '../strings/en.json';
import { resetContactsState } from '../state';

const ROWS: ContactIndexRow[] = [
  ['u7', 'Alice Nguyen', '1001', 'alice@example.com', 'Acme', 0, 'User'],
  ['u8', 'Bob Martinez', '1002', 'bob@example.com', 'Acme', 0, 'User'],
  ['p1', 'Ada Lovelace', '+14155550142', 'ada@engines.example', 'Analytical Engines', 0, 'personal'],
];

function contact(over: Partial<ContactWire> = {}): ContactWire {
  return {
    id: 'p1', user_id: null, source_id: '1', role_id: null, role_name: null, source: 'personal', name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace',
    company: '', title: '', notes: '', time_zone: null, avatar_id: null, avatar_href: null, video_id: null, favorite: false, readonly: false, hidden: false,
    status: null, state: null, is_current_user: false, is_dummy_contact: false, in_meeting: false, messaging_did: null, messaging_did_label: null,
    emails: [], addresses: [], instant_messengers: [], birthday: null, phone_numbers: [], ...over,
  };
}

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { contacts: { ...en, ...screenEn } } }, interpolation: { escapeValue: false } });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => 400);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => 600);
  window.scrollTo = () => undefined;
  Element.prototype.scrollTo = () => undefined;
});
/** What the server's directory holds (a test may give it more). */
let indexRows = ROWS;
beforeEach(() => {
  resetContactsState();
  indexRows = ROWS;
  directory.set(ROWS.map(toEntry));
});
afterEach(() => cleanup());

/** Alice (user 7) as the profile calls answer. */
const PROFILE = {
  user_id: 7, username: 'alice', first_name: 'Alice', last_name: 'Nguyen', alias: null, avatar_id: null, avatar_href: null, email: 'alice@example.com',
  c2d_peer_type: 2, company: 'Acme', organization_id: 1, role_id: 3, extension: '1001', is_reseller_level: false,
  phone_numbers: [{ source: 'extension', source_id: null, extension: '1001', number: null, is_primary: true }],
};
const ADDRESS = { address_id: 5, user_id: 7, street_1: '', street_2: '', apt_number: '', city: '', state: '', county: '', country: 'USA', zip_code: '', zip_plus_four: '', phone: null };
const aliceContact = (over: Partial<ContactWire> = {}) =>
  contact({ id: 'u7', user_id: 7, source: 'User', name: 'Alice Nguyen', first_name: 'Alice', last_name: 'Nguyen', company: 'Acme', readonly: true, is_current_user: true, ...over });

interface ProfileApi {
  patch?: (path: string, body: unknown) => Promise<unknown>;
  put?: (path: string, body: unknown) => Promise<unknown>;
  roleId?: number;
}

/** The screen at `/contacts<search>`, on a fake server. */
function setup(search = '', post?: (body: unknown) => Promise<unknown>, cold = false, profileApi: ProfileApi = {}) {
  const world = services(search, post, cold, profileApi);
  render(
    <QueryClientProvider client={world.queryClient}>
      <KernelProvider kernel={world.kernel}>
        <RouterProvider router={world.router} />
      </KernelProvider>
    </QueryClientProvider>,
  );
  return world;
}

/** The own-profile form as the preferences' Profile panel shows it (ProfileEditor), on the same fake server. */
function setupOwnProfile(profileApi: ProfileApi = {}) {
  const world = services('', undefined, false, profileApi);
  const onDone = vi.fn();
  const onDirty = vi.fn();
  render(
    <QueryClientProvider client={world.queryClient}>
      <KernelProvider kernel={world.kernel}>
        <OwnProfileForm onDone={onDone} onDirty={onDirty} />
      </KernelProvider>
    </QueryClientProvider>,
  );
  return { ...world, onDone, onDirty };
}

function services(search: string, post: ((body: unknown) => Promise<unknown>) | undefined, cold: boolean, profileApi: ProfileApi) {
  const kernel = new Kernel({ features: allFeatures(true) });
  const root = createRootRoute({ component: Outlet });
  const route = createRoute({ getParentRoute: () => root, path: '/contacts', validateSearch: contactsPlugin.routes![0]!.validateSearch!, component: ContactsScreen });
  const router = createRouter({ routeTree: root.addChildren([route]), history: createMemoryHistory({ initialEntries: [`/contacts${search}`] }) });
  const toast = vi.fn(() => 'id');
  const postFn = vi.fn(post ?? (async () => contact()));
  const patchFn = vi.fn(profileApi.patch ?? (async () => ({ ...PROFILE, last_name: 'Park' })));
  const putFn = vi.fn(profileApi.put ?? (async (_path: string, body: unknown) => body));
  const api = {
    get: vi.fn(async (path: string) => {
      if (path === '/v1/contacts') return { items: [contact({ id: 'p9', name: 'Paged Person', first_name: 'Paged', last_name: 'Person' })], total: 50_000, offset: 0, limit: 100 };
      if (path === '/v1/contact-integrations') return { google: { connected: false, enabled: false }, microsoft: { connected: false, enabled: false } };
      if (path === '/v1/contacts/p1') return contact();
      if (path === '/v1/contacts/u7') return aliceContact(patchFn.mock.calls.length ? { name: 'Alice Park', last_name: 'Park' } : {});
      if (path === '/v1/contacts/u8') return contact({ id: 'u8', user_id: 8, source: 'User', name: 'Bob Martinez', first_name: 'Bob', last_name: 'Martinez', readonly: true });
      if (path === '/v1/users/7') return PROFILE;
      if (path === '/v1/users/7/email-addresses') return { items: [] };
      if (path === '/v1/users/7/phone-numbers') return { items: [{ source: 'extension', source_id: null, extension: '1001', number: null, is_primary: true, type: 'work', custom_type: null }] };
      if (path === '/v1/users/7/addresses') return { items: [ADDRESS] };
      throw new ApiError(404, { error: 'not_found', message: 'No such contact' });
    }),
    patch: vi.fn((path: string, body: unknown) => patchFn(path, body)),
    put: vi.fn((path: string, body: unknown) => putFn(path, body)),
    textInParts: vi.fn(async (path: string) => {
      if (path === '/v1/contacts/index') return cold ? new Promise<string[]>(() => undefined) : [indexRows.map(indexRowToTsv).join('\n')];
      throw new ApiError(404, { error: 'not_found', message: 'Not here' });
    }),
    post: vi.fn((_path: string, body: unknown) => postFn(body)),
  };
  kernel.provide(Api, api as never);
  const refreshProfile = vi.fn(async () => undefined);
  kernel.provide(Session, { userId: 7, refreshProfile } as unknown as SessionInfo);
  kernel.provide(Notifications, { toast, dismiss: () => undefined, announce: () => undefined });
  kernel.provide(Preferences, { get: async () => false, set: async () => undefined } as never);
  kernel.provide(Dialogs, { confirm: async () => ({ confirmed: true, remember: false }) } as never);
  kernel.provide(Navigation, { navigate: (to, o) => void router.navigate({ to, search: o?.search as never, replace: o?.replace }) });
  // The screen's own cache (what its lazy chunk wraps it in), without the retry's second wait.
  const queryClient = contactQueries(kernel);
  queryClient.clear();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  kernel.load([contactsPlugin]);
  kernel.context.route = '/contacts';
  kernel.context.userId = 7;
  kernel.context.roleId = profileApi.roleId ?? 3;
  return { router, api, toast, postFn, patchFn, putFn, kernel, refreshProfile, queryClient };
}

describe('ContactsScreen', () => {
  it('shows the default group (coworkers) in a virtualised grid', async () => {
    setup();
    const grid = await screen.findByRole('grid', { name: 'Contacts' });
    expect(within(grid).getAllByRole('row').map((r) => r.getAttribute('aria-label'))).toEqual(['Alice Nguyen, 1001 · Acme, Company', 'Bob Martinez, 1002 · Acme, Company']);
    expect(screen.getByText('2 contacts')).toBeTruthy();
  });

  it('a term with thousands of hits shows its first rows at the keystroke and the whole result, and its count, a task later', async () => {
    const many = Array.from({ length: 1500 }, (_, i): ContactIndexRow => [`p${i + 10}`, `Person ${String(i).padStart(4, '0')}`, '', '', '', 0, 'personal']);
    indexRows = [...ROWS, ...many];
    directory.set(indexRows.map(toEntry));
    setup('?group=all');
    const grid = await screen.findByRole('grid', { name: 'Contacts' });
    await waitFor(() => expect(screen.getByText('1503 contacts')).toBeTruthy());
    act(() => void fireEvent.change(screen.getByRole('searchbox', { name: 'Search contacts' }), { target: { value: 'person 1' } }));
    // At the keystroke: the first rows of the result, in order; the count not yet told.
    expect(grid.getAttribute('aria-rowcount')).toBe('200');
    const inView = within(grid).getAllByRole('row').map((r) => r.getAttribute('aria-label'));
    expect(inView.every((label) => /^Person 1\d{3}$/.test(label!))).toBe(true);
    expect(document.querySelector('.contacts-count')!.getAttribute('aria-busy')).toBe('true');
    // A task later: all of it (Person 1000–1499). (The directory may be read again meanwhile: a
    // new search is busy again and shows the last count until it is whole.)
    await waitFor(() => expect(screen.getByRole('grid', { name: 'Contacts' }).getAttribute('aria-rowcount')).toBe('500'));
    const count = document.querySelector('.contacts-count')!;
    await waitFor(() => expect([count.textContent, count.hasAttribute('aria-busy')]).toEqual(['500 contacts', false]));
    // The rows in view were already the whole result's first rows.
    expect(within(grid).getAllByRole('row').map((r) => r.getAttribute('aria-label'))).toEqual(inView);
    // A term with few hits is complete at once.
    act(() => void fireEvent.change(screen.getByRole('searchbox', { name: 'Search contacts' }), { target: { value: 'person 149' } }));
    expect(grid.getAttribute('aria-rowcount')).toBe('10');
    expect(screen.getByText('10 contacts')).toBeTruthy();
  });

  it('before the directory has arrived, shows the server’s first page of the group and term', async () => {
    directory.reset();
    const { api, kernel } = setup('?group=personal&q=pag', undefined, true);
    const grid = await screen.findByRole('grid', { name: 'Contacts' });
    expect(within(grid).getByText('Paged Person')).toBeTruthy();
    expect(screen.getByText('50000 contacts')).toBeTruthy();
    expect(api.get).toHaveBeenCalledWith('/v1/contacts', { group: 'personal', search: 'pag', limit: 100 }, expect.anything(), expect.anything());
    kernel.dispose();
  });

  it('the meeting group is the server’s list of colleagues in a meeting now, even with the directory loaded', async () => {
    const { api, kernel } = setup('?group=meeting');
    const grid = await screen.findByRole('grid', { name: 'Contacts' });
    expect(within(grid).getByText('Paged Person')).toBeTruthy();
    expect(within(grid).queryByText('Alice Nguyen')).toBeNull();
    expect(api.get).toHaveBeenCalledWith('/v1/contacts', { group: 'meeting', search: undefined, limit: 500 }, expect.anything(), expect.anything());
    kernel.dispose();
  });

  it('multi-select checkboxes appear once one contact is chosen; Space ticks the current row', async () => {
    const { router } = setup('?group=all');
    const grid = await screen.findByRole('grid', { name: 'Contacts' });
    expect(within(grid).queryAllByRole('checkbox')).toHaveLength(0);
    fireEvent.click(within(grid).getByText('Ada Lovelace'));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ contact: 'p1' }));
    await waitFor(() => expect(within(grid).getAllByRole('checkbox')).toHaveLength(3));
    act(() => grid.focus());
    fireEvent.keyDown(grid, { key: ' ' });
    await waitFor(() => expect((within(grid).getByRole('checkbox', { name: 'Select Ada Lovelace' }) as HTMLInputElement).checked).toBe(true));
    expect(screen.getByRole('toolbar', { name: 'Selected contacts' })).toBeTruthy();
    expect(screen.getByText('1 selected')).toBeTruthy();
  });

  it('copy-link confirmation reverts after 3 s', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    setup('?group=all&contact=p1');
    const button = await screen.findByRole('button', { name: 'Copy link' });
    fireEvent.click(button);
    expect(writeText).toHaveBeenCalledWith(`${location.origin}/contacts?contact=p1`);
    expect(button.textContent).toBe('Link copied');
    await new Promise((r) => setTimeout(r, 2500));
    expect(button.textContent).toBe('Link copied');
    await waitFor(() => expect(button.textContent).toBe('Copy link'), { timeout: 1500 });
  });

  it('shows the server’s refusal at the field and keeps what the user typed', async () => {
    const { toast, postFn } = setup('?screen=form&editState=CREATE', async () => {
      throw new ApiError(400, { error: 'validation_failed', message: 'Invalid contact', details: [{ path: 'emails.0.email', message: 'email_invalid' }] });
    });
    const first = (await screen.findByRole('textbox', { name: 'First name' })) as HTMLInputElement;
    fireEvent.change(first, { target: { value: 'Zed' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'E-mail' }), { target: { value: 'zed@quux.example' } });
    fireEvent.submit(first.form!);
    await waitFor(() => expect(postFn).toHaveBeenCalled());
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeTruthy();
    expect(first.value).toBe('Zed');
    expect((screen.getByRole('textbox', { name: 'E-mail' }) as HTMLInputElement).value).toBe('zed@quux.example');
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ tone: 'error', titleKey: 'contacts:errors.saveTitle' }));
  });

  it('Enter in a field does not submit; Ctrl+Enter saves', async () => {
    const { postFn } = setup('?screen=form&editState=CREATE');
    const first = (await screen.findByRole('textbox', { name: 'First name' })) as HTMLInputElement;
    fireEvent.change(first, { target: { value: 'Zed' } });
    const plain = fireEvent.keyDown(first, { key: 'Enter' });
    expect(plain).toBe(false); // default (implicit submission) prevented
    await new Promise((r) => setTimeout(r, 20));
    expect(postFn).not.toHaveBeenCalled();
    HTMLFormElement.prototype.requestSubmit ??= function (this: HTMLFormElement) {
      this.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    };
    fireEvent.keyDown(first, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(postFn).toHaveBeenCalledWith(expect.objectContaining({ first_name: 'Zed' })));
  });

  it('shows any other server message as it is', async () => {
    const { toast } = setup('?screen=form&editState=CREATE', async () => {
      throw new ApiError(403, { error: 'forbidden', message: 'Company contacts are read-only: cannot edit' });
    });
    const first = (await screen.findByRole('textbox', { name: 'First name' })) as HTMLInputElement;
    fireEvent.change(first, { target: { value: 'Zed' } });
    fireEvent.submit(first.form!);
    await waitFor(() => expect(toast).toHaveBeenCalledWith(expect.objectContaining({ message: 'Company contacts are read-only: cannot edit' })));
    expect(first.value).toBe('Zed');
  });

  it('leaving with unsaved changes triggers the browser prompt', async () => {
    setup('?screen=form&editState=CREATE');
    const first = await screen.findByRole('textbox', { name: 'First name' });
    const clean = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);
    fireEvent.change(first, { target: { value: 'Zed' } });
    const dirty = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(dirty);
    expect(dirty.defaultPrevented).toBe(true);
  });

  it('the state select is disabled unless the country is the USA or empty', async () => {
    setup('?screen=form&editState=CREATE');
    fireEvent.click(await screen.findByRole('button', { name: 'Add address' }));
    const country = (await screen.findByRole('combobox', { name: 'Country' })) as HTMLSelectElement;
    const state = screen.getByRole('combobox', { name: 'State' }) as HTMLSelectElement;
    expect(country.options[0]!.textContent).toBe('Select Country');
    expect(state.options[0]!.textContent).toBe('Select');
    fireEvent.change(state, { target: { value: 'NY' } });
    expect(state.value).toBe('NY');
    fireEvent.change(country, { target: { value: 'CAN' } });
    await waitFor(() => expect(state.disabled).toBe(true));
    expect(state.value).toBe('');
    fireEvent.change(country, { target: { value: 'USA' } });
    await waitFor(() => expect(state.disabled).toBe(false));
  });

  describe('the own profile and other users', () => {
    it('the own contact offers "Edit profile" as a plain button (no actions menu); colleagues get "Edit user" only for roles 1 and 2', async () => {
      setup('?contact=u7');
      expect(await screen.findByRole('heading', { level: 2, name: 'Alice Nguyen' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Edit profile' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: /More actions/ })).toBeNull();
      cleanup();
      setup('?contact=u8');
      expect(await screen.findByRole('heading', { level: 2, name: 'Bob Martinez' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Edit user' })).toBeNull();
      cleanup();
      setup('?contact=u8', undefined, false, { roleId: 2 });
      expect(await screen.findByRole('heading', { level: 2, name: 'Bob Martinez' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Edit user' })).toBeTruthy();
    });

    it('the own contact offers "Change photo", which opens the upload form (not the read-only refusal)', async () => {
      const { router } = setup('?contact=u7');
      fireEvent.click(await screen.findByRole('button', { name: 'Change photo' }));
      expect(await screen.findByRole('heading', { level: 2, name: /photo/i })).toBeTruthy();
      expect(router.state.location.search).toMatchObject({ contact: 'u7', screen: 'form', editState: 'AVATAR' });
      expect(screen.queryByText('Company contacts are read-only.')).toBeNull();
      expect(screen.getByRole('button', { name: 'Upload' })).toBeTruthy();
    });

    it('"Edit profile" on the own contact opens the preferences\' Profile panel with its edit dialog', async () => {
      const { router, kernel } = setup('?contact=u7');
      // As after the first screen: the button's command can run.
      await kernel.loadLaterParts();
      fireEvent.click(await screen.findByRole('button', { name: 'Edit profile' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/preferences'));
      expect(router.state.location.search).toEqual({ panel: 'profile', modal: 'edit' });
    });

    it('the own profile form is not at a contacts address: EDIT_PROFILE there shows the contact', async () => {
      setup('?contact=u7&screen=form&editState=EDIT_PROFILE');
      expect(await screen.findByRole('heading', { level: 2, name: 'Alice Nguyen' })).toBeTruthy();
      expect(screen.queryByRole('textbox', { name: 'Last name' })).toBeNull();
    });

    it('the own profile form (for the preferences) has only what a profile stores, and saving sends the changed fields', async () => {
      const { patchFn, putFn, refreshProfile, onDone, onDirty } = setupOwnProfile();
      expect(await screen.findByRole('heading', { level: 2, name: 'Edit profile' })).toBeTruthy();
      // A profile has no job title, messengers, birthday or notes; the extension is shown read-only.
      expect(screen.queryByRole('textbox', { name: 'Job title' })).toBeNull();
      expect(screen.queryByRole('textbox', { name: 'Notes' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Add messenger' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Add address' })).toBeNull();
      expect((screen.getByRole('textbox', { name: 'Extension' }) as HTMLInputElement).readOnly).toBe(true);
      const last = screen.getByRole('textbox', { name: 'Last name' }) as HTMLInputElement;
      fireEvent.change(last, { target: { value: 'Park' } });
      // The host (the preferences' leave guard) hears there is something to lose.
      await waitFor(() => expect(onDirty).toHaveBeenLastCalledWith(true, expect.any(Function)));
      fireEvent.submit(last.form!);
      await waitFor(() => expect(patchFn).toHaveBeenCalledWith('/v1/users/7', { last_name: 'Park' }));
      // Nothing else changed, so nothing else is sent.
      expect(putFn).not.toHaveBeenCalled();
      await waitFor(() => expect(onDone).toHaveBeenCalledWith(true));
      expect(directory.get('u7')?.name).toBe('Alice Park');
      // The account menu shows one's own name too: the session profile is read again.
      expect(refreshProfile).toHaveBeenCalled();
    });

    it('the alias is the profile\'s too: an emptied one is sent as null', async () => {
      const { patchFn } = setupOwnProfile({ patch: async () => ({ ...PROFILE, alias: null }) });
      const alias = (await screen.findByRole('textbox', { name: 'Alias' })) as HTMLInputElement;
      fireEvent.change(alias, { target: { value: 'Ali' } });
      fireEvent.submit(alias.form!);
      await waitFor(() => expect(patchFn).toHaveBeenCalledWith('/v1/users/7', { alias: 'Ali' }));
    });

    it('a refused save shows the problems at their fields, keeps what was typed, and says it with ERROR_PROFILE', async () => {
      const { toast, patchFn } = setupOwnProfile({
        patch: async () => {
          throw new ApiError(400, { error: 'validation_failed', message: 'Invalid profile', details: [{ path: 'email', message: 'email_invalid' }] });
        },
      });
      const email = (await screen.findByRole('textbox', { name: 'E-mail' })) as HTMLInputElement;
      fireEvent.change(email, { target: { value: 'alice@localhost.example' } });
      fireEvent.submit(email.form!);
      await waitFor(() => expect(patchFn).toHaveBeenCalled());
      expect(await screen.findByText('Enter a valid e-mail address.')).toBeTruthy();
      expect(email.value).toBe('alice@localhost.example');
      expect(toast).toHaveBeenCalledWith(expect.objectContaining({ tone: 'error', titleKey: 'contacts:errors.profileTitle', messageKey: 'contacts:errors.checkFields' }));
    });

    it('an emptied e-mail is caught before anything is sent', async () => {
      const { patchFn } = setupOwnProfile();
      const email = (await screen.findByRole('textbox', { name: 'E-mail' })) as HTMLInputElement;
      fireEvent.change(email, { target: { value: '' } });
      fireEvent.submit(email.form!);
      expect(await screen.findByText('This field is required.')).toBeTruthy();
      expect(patchFn).not.toHaveBeenCalled();
    });

    it('other refusals show the server’s message in a toast', async () => {
      const { toast } = setupOwnProfile({
        patch: async () => {
          throw new ApiError(403, { error: 'forbidden', message: 'Only account owners and administrators can update other users' });
        },
      });
      const first = (await screen.findByRole('textbox', { name: 'First name' })) as HTMLInputElement;
      fireEvent.change(first, { target: { value: 'Ali' } });
      fireEvent.submit(first.form!);
      await waitFor(() => expect(toast).toHaveBeenCalledWith(expect.objectContaining({ titleKey: 'contacts:errors.profileTitle', message: 'Only account owners and administrators can update other users' })));
      expect(first.value).toBe('Ali');
    });

    it('EDIT_USER from the URL for a standard user says why instead of showing a form', async () => {
      setup('?contact=u8&screen=form&editState=EDIT_USER');
      expect(await screen.findByText('Only account owners and administrators can edit other users.')).toBeTruthy();
      expect(screen.queryByRole('textbox', { name: 'First name' })).toBeNull();
    });

    it('EDIT_USER on oneself (an administrator, by the URL) points to Edit profile instead', async () => {
      setup('?contact=u7&screen=form&editState=EDIT_USER', undefined, false, { roleId: 2 });
      expect(await screen.findByText('This is you: use Edit profile.')).toBeTruthy();
      expect(screen.queryByRole('textbox', { name: 'First name' })).toBeNull();
    });
  });
});
