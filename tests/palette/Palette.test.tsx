// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { allFeatures, definePlugin, HotkeyManager, Kernel, KernelProvider, type PaletteEntity } from '../../src/kernel';
import en from '../../src/palette/locales/en.json';
import { COUNT_ANNOUNCE_MS, Palette } from '../../src/palette/Palette';
import { closePalette, openPalette } from '../../src/palette/store';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { palette: en, v: { vm: 'Voicemail', read: 'Mark all read' } } }, interpolation: { escapeValue: false } });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => 400);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => 600);
  Element.prototype.scrollTo = () => undefined;
  Element.prototype.scrollIntoView = () => undefined;
  (globalThis as { CSS?: unknown }).CSS ??= { escape: (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`) };
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
afterEach(() => {
  closePalette();
  cleanup();
  vi.useRealTimers();
});

const messages: PaletteEntity[] = ['Alice', 'Bob', 'Carol', 'Dave', 'Erin', 'Voicemail box'].map((name, i) => ({ id: `vm:${i}`, label: name, detail: `10${i}`, actions: [] }));
// Its words are in strings that load later (a plugin's lazy strings, just after sign-in).
messages.push({ id: 'vm:jonas', label: { key: 'later:entity', values: { name: 'Jonas Berg' } }, actions: [] });

function setup() {
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([
    definePlugin({
      id: 'v',
      titleKey: 'v:vm',
      commands: [{ id: 'v.read', titleKey: 'v:read', run: () => undefined }],
      searchProviders: [{ id: 'vm', kindKey: 'v:vm', items: () => messages }],
    }),
  ]);
  render(
    <KernelProvider kernel={kernel}>
      <Palette hotkeys={new HotkeyManager(kernel)} />
    </KernelProvider>,
  );
}

it('announces the result count once typing pauses, not after every keystroke', async () => {
  vi.useFakeTimers();
  setup();
  await act(async () => openPalette());
  const status = screen.getByRole('status');
  const heard: string[] = [];
  // What a screen reader reads: the whole (atomic) region after each change.
  new MutationObserver(() => status.textContent && heard.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
  const input = screen.getByRole('combobox');
  for (const typed of ['v', 'vo', 'voi', 'voic', 'voicemail']) {
    act(() => void fireEvent.change(input, { target: { value: typed } }));
    await act(async () => void vi.advanceTimersByTime(100));
  }
  expect(heard).toEqual([]);
  await act(async () => void vi.advanceTimersByTime(COUNT_ANNOUNCE_MS));
  expect(heard).toEqual(['1 result']);
});

it('lists an entity whose strings arrive while the palette is open, by its words', async () => {
  setup();
  await act(async () => openPalette());
  const input = screen.getByRole('combobox');
  act(() => void fireEvent.change(input, { target: { value: 'jonas' } }));
  expect(screen.queryAllByRole('option')).toEqual([]);
  act(() => void i18next.addResourceBundle('en', 'later', { entity: 'Voicemail from {{name}}' }));
  expect(screen.getByRole('option', { name: /Voicemail from Jonas Berg/ })).toBeTruthy();
  expect(screen.queryByText(/entity/)).toBeNull();
});

/**
 * A palette over a plugin that lists `panels` and is still settling (as preferences is just after
 * sign-in); `settled()` resolves once its work after the first screen has started, and ends it.
 */
function settlingPlugin(panels: PaletteEntity[]) {
  let settle: (() => void) | undefined;
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([
    definePlugin({
      id: 'p',
      titleKey: 'v:vm',
      // A new array per call: the test changes `panels` in place, which a provider must not (contract.ts).
      searchProviders: [{ id: 'panels', kindKey: 'v:vm', items: () => [...panels] }],
      activate: (ctx) => ctx.afterFirstScreen((settled) => void (settle = settled), { settles: true }),
    }),
  ]);
  render(
    <KernelProvider kernel={kernel}>
      <Palette hotkeys={new HotkeyManager(kernel)} />
    </KernelProvider>,
  );
  return {
    started: () => vi.waitFor(() => expect(settle).toBeTypeOf('function')),
    settle: () => act(async () => settle!()),
  };
}

it('lists the entities a plugin builds while it settles, when the palette opened before it had', async () => {
  const panels: PaletteEntity[] = [];
  const plugin = settlingPlugin(panels);
  await act(async () => openPalette());
  act(() => void fireEvent.change(screen.getByRole('combobox'), { target: { value: 'profile' } }));
  expect(screen.queryAllByRole('option')).toEqual([]);
  await plugin.started();
  panels.push({ id: 'prefs:profile', label: 'Preferences ▸ Profile', actions: [] });
  await plugin.settle();
  expect(screen.getByRole('option', { name: /Preferences ▸ Profile/ })).toBeTruthy();
});

it('keeps the row the user moved to when the rows are listed again for the same query', async () => {
  const panels: PaletteEntity[] = [
    { id: 'prefs:a', label: 'Profile photo', actions: [] },
    { id: 'prefs:b', label: 'Profile details', actions: [] },
  ];
  const plugin = settlingPlugin(panels);
  await act(async () => openPalette());
  const input = screen.getByRole('combobox');
  act(() => void fireEvent.change(input, { target: { value: 'profile' } }));
  await plugin.started();
  const selectedName = () => screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true')?.textContent;
  const first = selectedName();
  act(() => void fireEvent.keyDown(input, { key: 'ArrowDown' }));
  const moved = selectedName();
  expect(moved).not.toBe(first);
  panels.unshift({ id: 'prefs:c', label: 'Profile sharing', actions: [] });
  await plugin.settle();
  expect(screen.getByRole('option', { name: /Profile sharing/ })).toBeTruthy();
  expect(selectedName()).toBe(moved);
  // A new query starts at its first row.
  act(() => void fireEvent.change(input, { target: { value: 'profile d' } }));
  expect(screen.getByRole('option', { name: /Profile details/ }).getAttribute('aria-selected')).toBe('true');
  act(() => void fireEvent.change(input, { target: { value: 'profile' } }));
  expect(screen.getAllByRole('option')[0]!.getAttribute('aria-selected')).toBe('true');
});
