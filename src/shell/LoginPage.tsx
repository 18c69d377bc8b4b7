import { lazy, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type Notifier } from '../kernel';
import { HTTP } from '../wire/http';
import { announcer } from './announcer';
import { AriaLocale } from './AriaLocale';
import { meetingSlugOf, safeRedirect } from './redirect';
import type { GuestJoinResponse } from '../wire/meetings';
import { analyticsSessionId } from './analytics';
import { api, login } from './session';
import { Later } from './Later';
import { LiveRegions } from './LiveRegions';

/*
 * The language select (a popover and a list box) and the toasts (their region and queue) are much of
 * React Aria: they load as the form shows, which does not wait for them. They are there long before a
 * sign-in is answered, so a failure's notice shows even if the server is down by then.
 */
const LanguagePicker = lazy(() => import('./LanguagePicker').then((m) => ({ default: m.LanguagePicker })));
const Toasts = lazy(() => import('./toasts').then((m) => ({ default: m.Toasts })));
// Only on a meeting's link, and only when asked for: sign-in pages do not carry it.
const GuestJoin = lazy(() => import('./GuestJoin').then((m) => ({ default: m.GuestJoin })));
let notifier: Promise<Notifier> | null = null;

/** Counted before the page is left (the app is a full load); a failed count never stops the sign-in. */
async function trackSignIn(): Promise<void> {
  await api.post('/v1/analytics', { action_type: 'sign_in', session_id: analyticsSessionId() }).catch(() => undefined);
}
/** Uses the login page's notifier; if its chunk could not load, logs it and tries again next time. */
async function withNotifier(use: (n: Notifier) => void): Promise<void> {
  try {
    use(await (notifier ??= import('./loginToasts').then((m) => m.createNotifierForLogin())));
  } catch (err) {
    notifier = null;
    console.error('login notices', err);
  }
}

/** The whole page of a visitor without a session: the form, its notices and the live regions. */
export function LoginScreen({ redirect, reason, onGuest }: { redirect?: string; reason?: 'maintenance'; onGuest?: (guest: GuestJoinResponse) => void }) {
  return (
    <AriaLocale>
      <LoginPage redirect={redirect} reason={reason} onGuest={onGuest} />
      <Later>
        <Toasts />
      </Later>
      <LiveRegions announcer={announcer} />
    </AriaLocale>
  );
}

/** "37 seconds", "15 minutes" in the page's language: Intl has each language's plural forms. */
export function waitText(seconds: number, language: string): string {
  const minutes = seconds >= 90;
  return new Intl.NumberFormat(language, { style: 'unit', unit: minutes ? 'minute' : 'second', unitDisplay: 'long' }).format(minutes ? Math.ceil(seconds / 60) : seconds);
}

export function LoginPage({ redirect, reason, onGuest }: { redirect?: string; reason?: 'maintenance'; onGuest?: (guest: GuestJoinResponse) => void }) {
  const { t, i18n } = useTranslation('shell');
  // A meeting's link: its visitor may join as a guest instead of signing in.
  const guestSlug = onGuest ? meetingSlugOf(redirect) : null;
  const [asGuest, setAsGuest] = useState(false);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  /** Which required fields were empty at the last attempt; each says so under itself. */
  const [missing, setMissing] = useState<{ username?: true; password?: true }>({});
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const failureToast = useRef<string | null>(null);
  // With the form, not on the first failure: a sign-in may fail because the server is gone.
  useEffect(() => void withNotifier(() => undefined), []);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    // Both fields are needed before anything is sent: each empty one says so, and takes focus.
    const empty = { ...(username.trim() ? {} : { username: true as const }), ...(password ? {} : { password: true as const }) };
    setMissing(empty);
    if (empty.username || empty.password) {
      (empty.username ? usernameRef : passwordRef).current?.focus();
      return;
    }
    setBusy(true);
    const shown = failureToast.current;
    if (shown) await withNotifier((n) => n.dismiss(shown));
    try {
      await login({ username: username.trim(), password, remember });
      await trackSignIn();
      location.assign(safeRedirect(redirect));
    } catch (err) {
      setBusy(false);
      if (!(err instanceof ApiError)) console.error('login failed', err);
      // A failed login's toast never times out (it stays until dismissed); what was typed stays in the form.
      const wait = err instanceof ApiError && err.status === HTTP.TOO_MANY_REQUESTS ? (err.body.retry_after ?? 60) : null;
      await withNotifier((n) => {
        failureToast.current = n.toast(
          wait === null
            ? { titleKey: 'shell:login.failedTitle', messageKey: 'shell:login.failedMessage', tone: 'error', timeoutMs: null }
            : { titleKey: 'shell:login.throttledTitle', messageKey: 'shell:login.throttledMessage', values: { wait: waitText(wait, i18n.language) }, tone: 'error', timeoutMs: null },
        );
      });
    }
  };

  if (asGuest && guestSlug && onGuest) {
    return (
      <main className="login-page">
        <div className="login-card">
          <h1>{t('guest.pageTitle')}</h1>
          <Later fallback={<p role="status">{t('guest.loading')}</p>}>
            <GuestJoin slug={guestSlug} onJoined={onGuest} onCancel={() => setAsGuest(false)} />
          </Later>
        </div>
      </main>
    );
  }

  return (
    <main className="login-page">
      <div className="login-card">
        <h1>{t('login.title')}</h1>
        {reason === 'maintenance' && (
          <p role="alert" className="login-notice">
            {t('login.maintenance')}
          </p>
        )}
        {/*
          Native form controls: they are the most robust for assistive technology, and React Aria's
          text fields, checkbox and button would more than double what this page loads before the
          user can sign in (docs/DECISIONS.md, "A lighter boot"). The language picker, a real
          composite widget, is React Aria's Select, loaded as the form shows.
        */}
        <form onSubmit={onSubmit} noValidate className="login-form">
          <div className="field">
            <label htmlFor={`${id}-username`}>{t('login.username')}</label>
            <input
              ref={usernameRef}
              id={`${id}-username`}
              className="input"
              name="username"
              required
              autoComplete="username"
              autoFocus
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              aria-invalid={missing.username ? true : undefined}
              aria-describedby={missing.username ? `${id}-username-error` : undefined}
            />
            {missing.username && (
              <span id={`${id}-username-error`} className="field-error">
                {t('login.usernameRequired')}
              </span>
            )}
          </div>
          <div className="field">
            <label htmlFor={`${id}-password`}>{t('login.password')}</label>
            <input
              ref={passwordRef}
              id={`${id}-password`}
              className="input"
              name="password"
              type="password"
              required
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={missing.password ? true : undefined}
              aria-describedby={missing.password ? `${id}-password-error` : undefined}
            />
            {missing.password && (
              <span id={`${id}-password-error`} className="field-error">
                {t('login.passwordRequired')}
              </span>
            )}
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            {t('login.remember')}
          </label>
          <button type="submit" className="btn primary login-submit" aria-disabled={busy || undefined}>
            {busy ? t('login.signingIn') : t('login.submit')}
          </button>
        </form>
        {guestSlug && (
          <div className="guest-offer">
            <p>{t('guest.offerText')}</p>
            <button type="button" className="btn" onClick={() => setAsGuest(true)}>
              {t('guest.offer')}
            </button>
          </div>
        )}
        <Later fallback={<div className="field language-picker" />}>
          <LanguagePicker />
        </Later>
      </div>
    </main>
  );
}
