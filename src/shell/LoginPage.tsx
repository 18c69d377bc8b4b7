import { lazy, useEffect, useRef, useState, type FormEvent } from 'react';
// By component, not through the package's index: vite.config.ts finds what of React Aria the login
// page needs by following its imports, and the index would lead to every component.
import { Button } from 'react-aria-components/Button';
import { Checkbox } from 'react-aria-components/Checkbox';
import { FieldError } from 'react-aria-components/FieldError';
import { Form } from 'react-aria-components/Form';
import { Input } from 'react-aria-components/Input';
import { Label } from 'react-aria-components/Label';
import { TextField } from 'react-aria-components/TextField';
import { useTranslation } from 'react-i18next';
import { ApiError, type Notifier } from '../kernel';
import { HTTP } from '../wire/http';
import { announcer } from './announcer';
import { AriaLocale } from './AriaLocale';
import { safeRedirect } from './redirect';
import { login } from './session';
import { Later } from './Later';
import { LiveRegions } from './LiveRegions';

/*
 * The language select (a popover and a list box) and the toasts (their region and queue) are much of
 * React Aria: they load as the form shows, which does not wait for them. They are there long before a
 * sign-in is answered, so a failure's notice shows even if the server is down by then.
 */
const LanguagePicker = lazy(() => import('./LanguagePicker').then((m) => ({ default: m.LanguagePicker })));
const Toasts = lazy(() => import('./toasts').then((m) => ({ default: m.Toasts })));
let notifier: Promise<Notifier> | null = null;
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
export function LoginScreen({ redirect }: { redirect?: string }) {
  return (
    <AriaLocale>
      <LoginPage redirect={redirect} />
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

export function LoginPage({ redirect }: { redirect?: string }) {
  const { t, i18n } = useTranslation('shell');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const failureToast = useRef<string | null>(null);
  // With the form, not on the first failure: a sign-in may fail because the server is gone.
  useEffect(() => void withNotifier(() => undefined), []);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // The form must be valid before it is sent; react-aria shows each field's message.
    if (!e.currentTarget.checkValidity()) return;
    setBusy(true);
    const shown = failureToast.current;
    if (shown) await withNotifier((n) => n.dismiss(shown));
    try {
      await login({ username: username.trim(), password, remember });
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

  return (
    <main className="login-page">
      <div className="login-card">
        <h1>{t('login.title')}</h1>
        <Form onSubmit={onSubmit} validationBehavior="native" className="login-form">
          <TextField name="username" isRequired value={username} onChange={setUsername} autoComplete="username" className="field" autoFocus>
            <Label>{t('login.username')}</Label>
            <Input className="input" />
            <FieldError>{t('login.usernameRequired')}</FieldError>
          </TextField>
          <TextField name="password" type="password" isRequired value={password} onChange={setPassword} autoComplete="current-password" className="field">
            <Label>{t('login.password')}</Label>
            <Input className="input" />
            <FieldError>{t('login.passwordRequired')}</FieldError>
          </TextField>
          <Checkbox isSelected={remember} onChange={setRemember} className="checkbox">
            <span className="checkbox-box" aria-hidden="true" />
            {t('login.remember')}
          </Checkbox>
          <Button type="submit" className="btn primary login-submit" isPending={busy}>
            {busy ? t('login.signingIn') : t('login.submit')}
          </Button>
        </Form>
        <Later fallback={<div className="field language-picker" />}>
          <LanguagePicker />
        </Later>
      </div>
    </main>
  );
}
