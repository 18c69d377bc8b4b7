import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../kernel';
import { setupTokenFromHash } from '../wire/passwordSetupLink';
import { AccessTokenResponse } from '../wire/tokenResponse';
import { AriaLocale } from './AriaLocale';
import { api } from './session';
import { linkProblem, setPasswordForm, type LinkProblem } from './setPassword';
import './setPassword.css';

type Info = { username: string; name: string };

/**
 * The page of a "set your password" link (outside the app, like the login page): whose link it is,
 * the new password twice with the password change's rules as a live checklist, then the user is
 * signed in and the app opens. A used, expired or replaced link says so instead of the form.
 */
export function SetPasswordScreen() {
  // A second link opened in the same tab changes only the part after '#': that is another link's
  // page (the key starts it afresh), not the first one's.
  const hash = useSyncExternalStore(onHashChange, () => location.hash);
  const token = setupTokenFromHash(hash);
  return (
    <AriaLocale>
      <SetPasswordPage key={token ?? ''} token={token} />
    </AriaLocale>
  );
}

function onHashChange(changed: () => void): () => void {
  addEventListener('hashchange', changed);
  return () => removeEventListener('hashchange', changed);
}

export function SetPasswordPage({ token }: { token: string | null }) {
  const { t } = useTranslation('shell');
  const [info, setInfo] = useState<Info | null>(null);
  const [problem, setProblem] = useState<LinkProblem | 'failed' | null>(token ? null : 'invalid');
  const [fields, setFields] = useState({ password: '', confirm: '' });
  const [busy, setBusy] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const form = setPasswordForm(fields.password, fields.confirm);
  const dirty = fields.password !== '' || fields.confirm !== '';

  useEffect(() => {
    if (!token) return;
    let live = true;
    api
      .post<Info>('/v1/password-setup/check', { token })
      .then((i) => live && setInfo(i))
      .catch((err: unknown) => {
        if (!live) return;
        const known = err instanceof ApiError ? linkProblem(err.status, err.body.error) : null;
        if (!known) console.error('set-password link check failed', err);
        setProblem(known ?? 'failed');
      });
    return () => void (live = false);
  }, [token]);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy || !token) return;
    if (!form.ready) {
      setErrorKey('setPassword.notReady');
      passwordRef.current?.focus();
      return;
    }
    setBusy(true);
    setErrorKey(null);
    try {
      await api.post('/v1/password-setup', { token, password: fields.password }, AccessTokenResponse);
      // Signed in (the session cookie is set): the app, as after a sign-in.
      location.assign('/');
    } catch (err) {
      setBusy(false);
      const known = err instanceof ApiError ? linkProblem(err.status, err.body.error) : null;
      if (known) return setProblem(known);
      if (!(err instanceof ApiError)) console.error('set password failed', err);
      setErrorKey(err instanceof ApiError && err.status === 400 ? 'setPassword.notReady' : 'setPassword.failed');
    }
  };

  const set = (k: keyof typeof fields) => (v: string) => (setFields((f) => ({ ...f, [k]: v })), setErrorKey(null));

  return (
    <main className="login-page">
      <div className="login-card">
        <h1>{t('setPassword.title')}</h1>
        {problem ? (
          <>
            <p role="alert" className="login-notice">
              {t(`setPassword.problems.${problem}`)}
            </p>
            <a className="btn" href="/login">
              {t('setPassword.toSignIn')}
            </a>
          </>
        ) : !info ? (
          <p role="status">{t('setPassword.checking')}</p>
        ) : (
          <form onSubmit={onSubmit} noValidate className="login-form">
            <p>{t('setPassword.intro', { name: info.name || info.username, username: info.username })}</p>
            {errorKey && (
              <p role="alert" className="field-error">
                {t(errorKey)}
              </p>
            )}
            {/* The account's name, for the browser's password manager to save with the new password. */}
            <div className="field">
              <label htmlFor={`${id}-username`}>{t('login.username')}</label>
              <input id={`${id}-username`} className="input" name="username" autoComplete="username" value={info.username} readOnly />
            </div>
            <div className="field">
              <label htmlFor={`${id}-password`}>{t('setPassword.password')}</label>
              <input
                ref={passwordRef}
                id={`${id}-password`}
                className="input"
                name="new-password"
                type="password"
                autoComplete="new-password"
                required
                autoFocus
                value={fields.password}
                onChange={(e) => set('password')(e.target.value)}
                aria-describedby={`${id}-rules`}
                aria-invalid={errorKey ? true : undefined}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-confirm`}>{t('setPassword.confirm')}</label>
              <input
                id={`${id}-confirm`}
                className="input"
                name="confirm-password"
                type="password"
                autoComplete="new-password"
                required
                value={fields.confirm}
                onChange={(e) => set('confirm')(e.target.value)}
                aria-describedby={`${id}-rules`}
              />
            </div>
            <div id={`${id}-rules`}>
              <p className="sp-rules-title">{t('setPassword.rulesTitle')}</p>
              <ul className="sp-rules">
                {form.checks.map((c) => (
                  <li key={c.rule} data-met={c.met || undefined}>
                    <span aria-hidden="true">{c.met ? '✓ ' : '○ '}</span>
                    {t(c.met ? 'setPassword.met' : 'setPassword.notMet', { rule: t(`setPassword.rules.${c.rule}`) })}
                  </li>
                ))}
              </ul>
            </div>
            {/* Heard as the user types: how many rules are met, not the whole list at every key. */}
            <p className="visually-hidden" aria-live="polite">
              {dirty ? t('setPassword.progress', { met: form.checks.filter((c) => c.met).length, total: form.checks.length }) : ''}
            </p>
            <button type="submit" className="btn primary login-submit" aria-disabled={busy || undefined}>
              {busy ? t('setPassword.saving') : t('setPassword.submit')}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
