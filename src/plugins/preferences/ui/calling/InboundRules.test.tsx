// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { proxy } from 'valtio';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { allFeatures, Api, ApiError, Kernel, KernelProvider, Session, type SessionInfo } from '../../../../kernel';
import { DESTINATION_TYPES } from '../../../../wire/calling';
import { DEFAULT_FIND_ME, NO_ROUTE, UNAVAILABLE_DESTINATION_REASONS, type FindMe, type InboundRoutes } from '../../../../wire/inbound';
import en from '../../strings/en.json';
import { FindMeTab } from './FindMeTab';
import { InboundRules } from './InboundRules';
import { RouteForm } from './RouteForm';
import { useCallingRules } from './useCallingRules';

beforeAll(async () => {
  if (!globalThis.CSS?.escape) vi.stubGlobal('CSS', { ...globalThis.CSS, escape: (v: string) => v.replace(/["\\]/g, '\\$&') });
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { preferences: en } }, interpolation: { escapeValue: false } });
});
afterEach(cleanup);

const TYPES = DESTINATION_TYPES.map((type) => {
  const reason = (UNAVAILABLE_DESTINATION_REASONS as Record<string, string | undefined>)[type] ?? null;
  const options = type === 'ext' ? [{ value: '4', name: 'Carol Okafor', number: '1003' }] : type === 'box' ? [{ value: '25', name: 'Thabo Nkosi', number: '1025' }] : null;
  return { type, available: reason === null, reason, options };
});
const ROUTES: InboundRoutes = { routeAlways: NO_ROUTE, routeBusy: { drop: 'ext', value: '4', phoneTime: null }, routeNoAnswer: { drop: 'phone', value: null, phoneTime: null }, routeOffline: NO_ROUTE };

function Harness() {
  const rules = useCallingRules();
  return (
    <>
      <InboundRules rules={rules} />
      <button type="button" onClick={() => void (rules.check() && rules.store().catch(() => undefined))}>
        Save
      </button>
      <button type="button" onClick={rules.discard}>
        Discard
      </button>
    </>
  );
}

function FindMeHarness() {
  return <FindMeTab rules={useCallingRules()} />;
}

function setup({ role = 3, put = vi.fn(async (_p: string, body: unknown) => body), routes = ROUTES, findMe = DEFAULT_FIND_ME, tab = 'inbound', extra = {} }: { role?: number; put?: ReturnType<typeof vi.fn>; routes?: InboundRoutes; findMe?: FindMe; tab?: 'inbound' | 'findMe'; extra?: Record<string, unknown> } = {}) {
  const kernel = new Kernel({ features: allFeatures(true) });
  const get = vi.fn(async (path: string) => {
    if (path === '/v1/broad/inbound') return routes;
    if (path === '/v1/broad/find-me') return findMe;
    if (path === '/v1/broad/destinations') return { items: [], types: TYPES };
    throw new ApiError(404, { error: 'not_found', message: 'Not found' });
  });
  kernel.provide(Api, { get, put, ...extra } as never);
  kernel.provide(Session, { userId: 25, profile: proxy({ role_id: role }) } as unknown as SessionInfo);
  render(
    <KernelProvider kernel={kernel}>
      {tab === 'inbound' ? <Harness /> : <FindMeHarness />}
    </KernelProvider>,
  );
  return { get, put };
}

const group = (name: string) => screen.getByRole('group', { name });

describe('the inbound rules', () => {
  it('show only the fields each type needs, with the summary sentence', async () => {
    setup();
    const busy = await screen.findByRole('group', { name: "When you're busy" });
    expect(within(busy).getByRole('combobox', { name: 'Colleague' })).toHaveProperty('value', 'Carol Okafor');
    expect(within(busy).queryByRole('textbox', { name: 'Number' })).toBeNull();
    expect(within(busy).getByText("When you're busy: ring Carol Okafor (1003)")).toBeTruthy();
    const noAnswer = group("When you don't answer");
    expect(within(noAnswer).getByRole('textbox', { name: 'Number' })).toBeTruthy();
    expect(within(noAnswer).getByRole('button', { name: /Ring time/ })).toBeTruthy();
    expect(within(noAnswer).queryByRole('combobox')).toBeNull();
    const always = group('All calls');
    expect(within(always).queryByRole('textbox')).toBeNull();
    expect(within(always).queryByRole('combobox')).toBeNull();
    // No busy route would show the administrator hint; this user has one.
    expect(screen.queryByText(/ask your administrator to configure one/)).toBeNull();
  });

  it('check before saving: the specification\'s text at the field (aria-describedby), the typed text kept, nothing sent until it is right', async () => {
    const { put } = setup();
    const user = userEvent.setup();
    const number = await screen.findByRole('textbox', { name: 'Number' });
    await user.type(number, 'call me');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(number.getAttribute('aria-describedby')).toBeTruthy());
    const described = () => number.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)?.textContent).join(' ');
    expect(described()).toContain('Enter the phone number');
    expect(number).toHaveProperty('value', 'call me');
    expect(put).not.toHaveBeenCalled();
    // Fixed: the number's error goes at once, the next one (the ring time) shows at its own field.
    await user.clear(number);
    await user.type(number, '+14155550142');
    expect(number.getAttribute('aria-invalid')).toBeNull();
    expect(within(group("When you don't answer")).getByText('Choose a ring time of 5, 10, 15, 20, 25 or 30 seconds')).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
  });

  it('a refusal naming "authorized" shows the no-permission notice; another shows "Save Failed!" with the server\'s message; the draft stays', async () => {
    const put = vi.fn().mockRejectedValueOnce(new ApiError(403, { error: 'forbidden', message: 'You are not authorized to make updates' }));
    setup({ put });
    const user = userEvent.setup();
    await screen.findByRole('group', { name: "When you're busy" });
    // An edit that passes the checks: a number and its ring time for "no answer".
    const number = screen.getByRole('textbox', { name: 'Number' });
    await user.type(number, '1003');
    await user.click(within(group("When you don't answer")).getByRole('button', { name: /Ring time/ }));
    await user.click(await screen.findByRole('option', { name: '20 seconds' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('You are not authorized to make updates');
    expect(notice.textContent).toContain('Contact your Administrator for access');
    expect(put).toHaveBeenCalledWith('/v1/broad/inbound', expect.objectContaining({ routeNoAnswer: { drop: 'phone', value: '1003', phoneTime: 20 } }), expect.anything());

    put.mockRejectedValueOnce(new ApiError(400, { error: 'validation_failed', message: 'Choose the extension', details: [{ path: 'routeBusy.value', message: 'ERROR_EXT' }] }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Save Failed!'));
    expect(screen.getByRole('alert').textContent).toContain('Choose the extension');
    // The server's field problem sits at its field too.
    const colleague = within(group("When you're busy")).getByRole('combobox', { name: 'Colleague' });
    expect(colleague.getAttribute('aria-invalid')).toBe('true');
    expect(number).toHaveProperty('value', '1003');
  });

  it('a discard starts the forms again from the saved rules, text typed in a list included', async () => {
    setup({ routes: { ...ROUTES, routeBusy: { drop: 'ext', value: null, phoneTime: null } } });
    const user = userEvent.setup();
    const colleague = await screen.findByRole('combobox', { name: 'Colleague' });
    await user.type(colleague, 'Zed');
    await user.type(screen.getByRole('textbox', { name: 'Number' }), '1003');
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.getByRole('combobox', { name: 'Colleague' })).toHaveProperty('value', '');
    expect(screen.getByRole('textbox', { name: 'Number' })).toHaveProperty('value', '');
  });

  it('a limited-access user sees the notice instead of the rules, and nothing is asked of the server', async () => {
    const { get } = setup({ role: 4 });
    expect((await screen.findByRole('alert')).textContent).toContain('You are not authorized to make updates');
    expect(screen.queryByRole('group', { name: "When you're busy" })).toBeNull();
    expect(get).not.toHaveBeenCalled();
  });
});

describe('one rule form', () => {
  it('lists every type, the unavailable ones disabled with their reason', async () => {
    const user = userEvent.setup();
    render(<RouteForm slot="routeBusy" route={NO_ROUTE} onChange={() => undefined} types={TYPES} selfId="25" problems={{}} />);
    expect(screen.getByText(/ask your administrator to configure one/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Destination/ }));
    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(DESTINATION_TYPES.length + 1);
    const queue = screen.getByRole('option', { name: 'Call queue' });
    expect(queue.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(queue.getAttribute('aria-describedby')!)?.textContent).toBe('No call queues run on this system');
    expect(screen.getByRole('option', { name: 'Colleague' }).getAttribute('aria-disabled')).toBeNull();
  });

  it("find-me's spoken announcements can be switched on; the recorded name's controls come with its switch", async () => {
    const user = userEvent.setup();
    const del = vi.fn(async () => undefined);
    setup({ tab: 'findMe', extra: { delete: del } });
    const recordName = await screen.findByRole('switch', { name: 'Play my recorded name to callers first' });
    const between = screen.getByRole('switch', { name: /please hold while we locate you/ });
    for (const s of [recordName, between]) {
      expect((s as HTMLInputElement).disabled).toBe(false);
      expect(document.getElementById(s.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toMatch(/while your locations ring/);
    }
    expect(screen.queryByRole('button', { name: 'Choose a recording of your name…' })).toBeNull();
    await user.click(recordName);
    expect(screen.getByRole('button', { name: 'Choose a recording of your name…' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove recorded name' }));
    expect(del).toHaveBeenCalledWith('/v1/broad/find-me/name');
    expect(await screen.findByText('Your recorded name is removed.')).toBeTruthy();
  });

  it('find-me\'s own next step does not offer find-me', async () => {
    const user = userEvent.setup();
    render(<RouteForm slot="simultaneous_next_step" route={NO_ROUTE} onChange={() => undefined} types={TYPES} selfId="25" problems={{}} exclude={['findme']} />);
    await user.click(screen.getByRole('button', { name: /Destination/ }));
    await screen.findAllByRole('option');
    expect(screen.queryByRole('option', { name: 'Find-me list' })).toBeNull();
  });
});
