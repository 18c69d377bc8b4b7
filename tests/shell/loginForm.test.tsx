// @vitest-environment jsdom
/**
 * The login form's own rules (its controls are native HTML, not React Aria's, to keep the page
 * light): an empty field says so under itself, is marked invalid with that message as its
 * description and takes focus, and nothing is sent; what was typed stays.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import shell from '../../src/shell/locales/en.json';

const login = vi.fn(async () => undefined);
vi.mock('../../src/shell/session', () => ({ login: (...a: unknown[]) => login(...(a as [])) }));
const { LoginPage } = await import('../../src/shell/LoginPage');

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { shell } }, interpolation: { escapeValue: false } });
});
afterEach(() => {
  cleanup();
  login.mockClear();
});

it('an empty username: its message, marked invalid, focused, nothing sent; the password typed stays', () => {
  render(<LoginPage />);
  const password = screen.getByLabelText('Password');
  fireEvent.change(password, { target: { value: 'secret' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  const username = screen.getByRole('textbox', { name: 'Username' });
  expect(username.getAttribute('aria-invalid')).toBe('true');
  expect(document.getElementById(username.getAttribute('aria-describedby')!)?.textContent).toBe('Enter your username.');
  expect(document.activeElement).toBe(username);
  expect((password as HTMLInputElement).value).toBe('secret');
  expect(login).not.toHaveBeenCalled();
});

it('an empty password says so once the username is there; both filled, the sign-in is sent with "Remember me"', async () => {
  render(<LoginPage />);
  const username = screen.getByRole('textbox', { name: 'Username' });
  fireEvent.change(username, { target: { value: ' alice ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(screen.queryByText('Enter your username.')).toBeNull();
  expect(screen.getByText('Enter your password.')).toBeTruthy();
  expect(document.activeElement).toBe(screen.getByLabelText('Password'));
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
  fireEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }));
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  await expect.poll(() => login.mock.calls.length).toBe(1);
  expect(login).toHaveBeenCalledWith({ username: 'alice', password: 'pw', remember: true });
  expect(screen.queryByText('Enter your password.')).toBeNull();
});
