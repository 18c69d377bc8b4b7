// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';

const check = vi.fn(async (_path: string, body: { token: string }) => ({ username: body.token.startsWith('a') ? 'nina.imported' : 'omar.imported', name: '' }));
vi.mock('./session', () => ({ api: { post: (path: string, body: { token: string }) => check(path, body) } }));
const { SetPasswordScreen } = await import('./SetPasswordPage');

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { shell: { setPassword: { title: 'Set your password', intro: 'Hello {{username}}', checking: 'Checking' } } } } });
});
afterEach(() => {
  cleanup();
  location.hash = '';
});

it('a second set-password link opened in the same tab (only the part after # changes) shows that link\'s user', async () => {
  const first = 'a'.repeat(43);
  const second = 'b'.repeat(43);
  location.hash = `#${first}`;
  render(<SetPasswordScreen />);
  expect(await screen.findByText('Hello nina.imported')).toBeTruthy();
  await act(async () => {
    location.hash = `#${second}`;
    dispatchEvent(new HashChangeEvent('hashchange'));
  });
  expect(await screen.findByText('Hello omar.imported')).toBeTruthy();
  expect(check).toHaveBeenLastCalledWith('/v1/password-setup/check', { token: second });
});
