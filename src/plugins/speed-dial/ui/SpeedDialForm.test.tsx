// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, Api, ApiError, Kernel, KernelProvider, Notifications, Session, type SessionInfo } from '../../../kernel';
import boot from '../locales/en.json';
import { newForm } from '../model';
import { resetSpeedDialState, sdState } from '../state';
import strings from '../strings/en.json';
import { SpeedDialForm } from './SpeedDialForm';

const post = vi.fn();
let kernel: Kernel;
beforeAll(async () => {
  // jsdom lacks CSS.escape, which React Aria's modal uses.
  if (!globalThis.CSS?.escape) vi.stubGlobal('CSS', { ...globalThis.CSS, escape: (v: string) => v.replace(/["\\]/g, '\\$&') });
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { 'speed-dial': { ...boot, ...strings } } }, interpolation: { escapeValue: false } });
});
beforeEach(() => {
  resetSpeedDialState();
  post.mockReset();
  kernel = new Kernel({ features: allFeatures(true) });
  kernel.provide(Notifications, { toast: vi.fn(() => ''), dismiss: vi.fn(), announce: vi.fn() });
  kernel.provide(Session, { userId: 7 } as unknown as SessionInfo);
  kernel.provide(Api, { post, get: vi.fn(async () => ({ items: [], max_org_speed_dials: 100, total_org_speed_dials: 0 })) } as never);
});
afterEach(cleanup);

function show(roleId: number, start = newForm()) {
  kernel.context.roleId = roleId;
  sdState.form = start;
  return render(
    <KernelProvider kernel={kernel}>
      <SpeedDialForm start={start} />
    </KernelProvider>,
  );
}
const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
/** What a screen reader reads after the field's name: its help and its error message. */
const described = (name: string) => (field(name).getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
const invalid = (name: string) => field(name).getAttribute('aria-invalid') === 'true';
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });

describe('the speed-dial form', () => {
  it('shows its own checks at the fields and sends nothing', async () => {
    show(3);
    type('Shortcut', '0');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(invalid('Shortcut')).toBe(true);
    expect(described('Shortcut')).toMatch(/A shortcut is a number from 1 to 9999\./);
    expect(described('Number')).toMatch(/Enter the number to dial\./);
    expect(post).not.toHaveBeenCalled();
  });

  it('shows the 400 naming the shortcut at the shortcut, and keeps what was typed', async () => {
    post.mockRejectedValueOnce(new ApiError(400, { error: 'shortcut_in_use', message: 'Shortcut #12 is already in use' }));
    show(3, newForm({ number: '1003', label: 'Carol Okafor' }));
    type('Shortcut', '12');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(described('Shortcut')).toMatch(/Shortcut #12 is already in use\./);
    // The field refused takes the focus, so that its message is read out.
    expect(document.activeElement).toBe(field('Shortcut'));
    expect([field('Shortcut').value, field('Label').value, field('Number').value]).toEqual(['12', 'Carol Okafor', '1003']);
    expect(sdState.form).not.toBeNull();
    // Typing again clears the message.
    type('Shortcut', '13');
    expect(invalid('Shortcut')).toBe(false);
  });

  it('offers sharing with the organisation to account owners and administrators only', () => {
    show(3);
    expect(screen.queryByRole('checkbox', { name: 'Share with my organisation' })).toBeNull();
    cleanup();
    show(2);
    expect(screen.getByRole('checkbox', { name: 'Share with my organisation' })).toBeTruthy();
  });

  it('a saved entry closes the form', async () => {
    post.mockResolvedValueOnce({});
    show(1, newForm({ number: '1003' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(post).toHaveBeenCalledWith('/v1/users/7/speed-dials', { shortcut: null, dial_string: '1003', label: '', visibility: 'personal' }, expect.anything());
    expect(sdState.form).toBeNull();
  });
});
