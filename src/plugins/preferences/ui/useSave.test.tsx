// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { preferencesState, resetPreferencesState } from '../state';
import { useSave, type SaveOptions } from './useSave';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { preferences: { saved: 'Saved', saveFailed: 'Not saved' } } }, interpolation: { escapeValue: false } });
});
afterEach(() => (cleanup(), resetPreferencesState()));

const render = (opts: Partial<SaveOptions>) => {
  const options: SaveOptions = { dirty: true, store: async () => undefined, discard: vi.fn(), logAs: 'test', ...opts };
  return renderHook(() => useSave('general', options));
};

describe("a panel's Save", () => {
  it('is busy while storing, then says Saved; the leave guard saves through it', async () => {
    let finish!: () => void;
    const store = vi.fn(() => new Promise<void>((r) => (finish = r)));
    const { result } = render({ store });
    expect(result.current.form).toMatchObject({ panel: 'general', canSave: true, saving: false, status: null });
    expect(preferencesState.unsaved?.panel).toBe('general');
    let saved!: Promise<boolean>;
    act(() => void (saved = preferencesState.unsaved!.save()));
    expect(result.current.form.saving).toBe(true);
    await act(async () => (finish(), await saved));
    expect(await saved).toBe(true);
    expect(result.current.form.saving).toBe(false);
    expect(result.current.form.status).toMatchObject({ props: { children: 'Saved', className: undefined } });
  });

  it('a failed store says "Not saved" in red and reports false, so the user stays', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = render({ store: () => Promise.reject(new Error('down')) });
    let ok: boolean | undefined;
    await act(async () => void (ok = await preferencesState.unsaved!.save()));
    expect(ok).toBe(false);
    expect(result.current.form.status).toMatchObject({ props: { children: 'Not saved', className: 'prefs-error' } });
    vi.restoreAllMocks();
  });

  it('not ready: Save is off and nothing is stored', async () => {
    const store = vi.fn(async () => undefined);
    const { result } = render({ store, ready: false });
    expect(result.current.form.canSave).toBe(false);
    let ok: boolean | undefined;
    await act(async () => void (ok = await preferencesState.unsaved!.save()));
    expect(ok).toBe(false);
    expect(store).not.toHaveBeenCalled();
  });
});
