/**
 * "call bob" in the palette, through the contacts plugin's real entities and telephony's real
 * dialler: telephony learns the number from contacts (ContactsApi.resolve), never from the words of
 * the contact's palette row, so that contacts may write its row as it likes.
 */
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { allFeatures, Api, definePlugin, Kernel, Navigation, Notifications, Session, type PluginManifest, type SessionInfo } from '../../src/kernel';
import { ContactsApi } from '../../src/contracts';
import { PaletteIndex } from '../../src/palette/model';
import { directory, toEntry } from '../../src/plugins/contacts/directory';
import { contactsPlugin } from '../../src/plugins/contacts/index';
import contactsEn from '../../src/plugins/contacts/locales/en.json';
import type { PhoneEngine } from '../../src/plugins/telephony/engine/PhoneEngine';
import { freshPhone, startEngine as startTestEngine } from '../../src/plugins/telephony/engine/test-engine';
import { telephonyPlugin } from '../../src/plugins/telephony/index';
import telephonyEn from '../../src/plugins/telephony/locales/en.json';
import { phone } from '../../src/plugins/telephony/state';
import type { ContactIndexRow } from '../../src/wire/contacts';

const engine = vi.hoisted(() => ({ current: null as PhoneEngine | null }));
vi.mock('../../src/plugins/telephony/lazy', async () => {
  const { makeRuns } = await vi.importActual<typeof import('../../src/plugins/telephony/runs')>('../../src/plugins/telephony/runs');
  const startEngine = async () => engine.current;
  const runs = makeRuns({
    startEngine,
    currentSettings: () => null,
    callTarget: (await vi.importActual<typeof import('../../src/plugins/telephony/engine/callTarget')>('../../src/plugins/telephony/engine/callTarget')).callTarget,
    destinationFrom: vi.fn(),
  });
  return { startEngine, stopEngine: vi.fn(), currentEngine: () => engine.current, uiStrings: async () => undefined, currentSettings: () => null, runs };
});

const ROWS: ContactIndexRow[] = [
  ['u7', 'Alice Nguyen', '1001', 'alice@example.com', 'Acme', 0, 'User'],
  ['u8', 'Bob Martinez', '1002 +14155550100', 'bob@example.com', 'Acme', 0, 'User'],
];

beforeAll(async () => {
  await i18next.init({ lng: 'en', resources: { en: { telephony: telephonyEn, contacts: contactsEn } }, interpolation: { escapeValue: false } });
});
beforeEach(freshPhone);
afterEach(() => {
  engine.current?.dispose();
  directory.reset();
  vi.useRealTimers();
});

/** The contacts plugin as it is, or one that writes its palette rows otherwise. */
function contactsWithRows(detail?: (shown: string | undefined) => string | undefined): PluginManifest {
  if (!detail) return contactsPlugin;
  // The entities come with the plugin's later part.
  return {
    ...contactsPlugin,
    later: async () => {
      const later = await contactsPlugin.later!();
      return { ...later, searchProviders: later.searchProviders!.map((p) => ({ ...p, items: (ctx) => p.items(ctx).map((e) => ({ ...e, detail: detail(e.detail) })) })) };
    },
  };
}

it.each([
  ['as contacts writes it today', undefined],
  ['with the company first', (shown: string | undefined) => shown?.split(' · ').reverse().join(' · ')],
  ['with no numbers in it', () => 'Acme'],
  ['with no detail at all', () => undefined],
])('"call bob" calls Bob\'s first number, the contact row written %s', async (_how, detail) => {
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.provide(Session, { userId: 7 } as unknown as SessionInfo);
  kernel.provide(Api, { textInParts: vi.fn(async () => ['']) } as never);
  kernel.provide(Navigation, { navigate: vi.fn() });
  kernel.provide(Notifications, { toast: vi.fn(() => 'id'), dismiss: vi.fn(), announce: vi.fn() });
  kernel.load([contactsWithRows(detail), definePlugin({ id: 'telephony', titleKey: 'telephony:title', commands: telephonyPlugin.commands })]);
  // As after the first screen: the palette's contact entities are in, and the directory's first load
  // (empty: the fake API has none) is over before the test's rows come.
  await kernel.loadLaterParts();
  await directory.loading;
  directory.set(ROWS.map(toEntry));
  const { h, engine: started } = await startTestEngine({ contacts: () => kernel.maybe(ContactsApi) });
  engine.current = started;

  const rows = new PaletteIndex(kernel, kernel.snapshot(), i18next.t.bind(i18next)).root('call bob', []);
  const row = rows.find((r) => r.kind === 'action' && r.title === 'Call ▸ Bob Martinez');
  expect(row?.kind).toBe('action');
  expect(await kernel.run('telephony.call', row!.kind === 'action' ? row!.args : {}, 'palette')).toBe(true);

  await vi.waitFor(() => expect(h.ua().call).toHaveBeenCalledWith('sip:1002@uc.local', expect.anything()));
  expect(Object.values(phone.calls)).toMatchObject([{ number: '1002', displayName: 'Bob Martinez' }]);
  expect(h.toasts).toEqual([]);
  kernel.dispose();
});
