import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { PluginManifest } from '../kernel';
import { PASSWORD_SETUP_PATH } from '../wire/passwordSetupLink';
import type { GuestJoinResponse } from '../wire/meetings';
import { setupI18n } from './i18nSetup';
import { loginUrl, redirectParam, signedOutReason } from './landing';
import { api, renewSession } from './session';
import './styles.css';

/**
 * Starts the page. First only what the login page and the app both need: React, the translations
 * and the API client, which asks whether the browser still has a session. Then one of two chunks:
 * the login page, or the app (kernel, router, frame, palette and the plugins' manifests), so that
 * neither carries the other's JavaScript. Nothing is drawn until the session is known, so a reload
 * with a valid session never shows the login page.
 */
export async function start(rootEl: HTMLElement, loadPlugins: () => Promise<readonly PluginManifest[]>): Promise<void> {
  // A set-password link is its own page whatever session the browser has: its user is signed in at the end.
  if (location.pathname === PASSWORD_SETUP_PATH) return startSetPassword(rootEl);
  // While the session is looked for, the code most likely needed loads: on /login the login page's,
  // elsewhere (a reload, a link) the app's.
  const onLogin = location.pathname.startsWith('/login');
  const loginPage = onLogin ? import('./LoginPage') : null;
  const appCode = onLogin ? null : loadApp(loadPlugins);
  // Without a session nobody waits for the app's code: its failure must not be reported as unhandled.
  appCode?.catch(() => undefined);
  const [, app] = await Promise.all([setupI18n(), restoreApp(() => appCode ?? loadApp(loadPlugins))]);
  const root = createRoot(rootEl);
  if (app) return app.start(root);
  history.replaceState(history.state, '', loginUrl(location));
  const { LoginScreen } = await (loginPage ?? import('./LoginPage'));
  const redirect = redirectParam(location.search);
  // A meeting's guest: back on the meeting's address, in the guest mode (only that meeting's page).
  const onGuest = (guest: GuestJoinResponse) => {
    const meetingPath = new URL(redirect ?? '/', location.origin).pathname;
    history.replaceState(null, '', meetingPath);
    void loadApp(loadPlugins).then(([b, plugins]) => b.bootGuest(root, guest, meetingPath, plugins));
  };
  root.render(
    <StrictMode>
      <LoginScreen redirect={redirect} reason={signedOutReason(location.search)} onGuest={onGuest} />
    </StrictMode>,
  );
}

async function startSetPassword(rootEl: HTMLElement): Promise<void> {
  const [, { SetPasswordScreen }] = await Promise.all([setupI18n(), import('./SetPasswordPage')]);
  createRoot(rootEl).render(
    <StrictMode>
      <SetPasswordScreen />
    </StrictMode>,
  );
}

function loadApp(loadPlugins: () => Promise<readonly PluginManifest[]>) {
  return Promise.all([import('./boot'), loadPlugins()]);
}

/**
 * With a session: the app's chunk, the plugins and the user's profile and configuration, all at
 * once; null without one. A failure on the way (the server down) also leads to the login page.
 */
async function restoreApp(appCode: () => ReturnType<typeof loadApp>) {
  try {
    const token = await renewSession();
    if (!token) return null;
    const [[boot, plugins], profile, config] = await Promise.all([
      appCode(),
      // Checked by the app's chunk (boot.ts): the login page does not carry their parsers.
      api.get<unknown>(`/v1/users/${token.user_id}`),
      api.get<unknown>('/v1/ucc-config'),
    ]);
    const session = boot.checkSession(token.user_id, profile, config);
    return { start: (root: Root) => boot.boot(root, session, plugins) };
  } catch (err) {
    console.error('session restore failed', err);
    return null;
  }
}
