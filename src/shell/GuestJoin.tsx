import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../kernel';
import { HTTP } from '../wire/http';
import { GuestJoinResponse } from '../wire/meetings';
import { waitText } from './LoginPage';
import { api } from './session';

type Field = 'name' | 'email' | 'pin';

/**
 * "Join as a guest": name, e-mail address and the PIN (when the meeting has one) for the meeting
 * the link named. Native controls, as the sign-in form beside it. The server's refusal says which
 * field is wrong; that field takes the focus and says so under itself.
 */
export function GuestJoin({ slug, onJoined, onCancel }: { slug: string; onJoined(guest: GuestJoinResponse): void; onCancel(): void }) {
  const { t, i18n } = useTranslation('shell');
  const id = useId();
  const [values, setValues] = useState<Record<Field, string>>({ name: '', email: '', pin: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refs = { name: useRef<HTMLInputElement>(null), email: useRef<HTMLInputElement>(null), pin: useRef<HTMLInputElement>(null) };

  const refuse = (field: Field | null, text: string) => {
    setErrors(field ? { [field]: text } : {});
    setAlert(field ? null : text);
    if (field) refs[field].current?.focus();
  };

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const name = values.name.trim();
    const email = values.email.trim();
    if (!name) return refuse('name', t('guest.nameRequired'));
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return refuse('email', t('guest.emailInvalid'));
    if (values.pin && !/^\d{4}$/.test(values.pin)) return refuse('pin', t('guest.pinFormat'));
    setBusy(true);
    try {
      onJoined(await api.post('/v1/meetings/guest', { meeting: slug, name, email, pin: values.pin || null }, GuestJoinResponse));
    } catch (err) {
      setBusy(false);
      const code = err instanceof ApiError ? err.body.error : null;
      if (code === 'wrong_pin') refuse('pin', t('guest.wrongPin'));
      else if (code === 'join_too_early') refuse(null, t('guest.tooEarly'));
      else if (code === 'meeting_ended') refuse(null, t('guest.ended'));
      else if (err instanceof ApiError && err.status === HTTP.TOO_MANY_REQUESTS) refuse(null, t('guest.throttled', { wait: waitText(err.body.retry_after ?? 60, i18n.language) }));
      else if (err instanceof ApiError && err.status === 404) refuse(null, t('guest.notFound'));
      else if (err instanceof ApiError && err.status === 400) refuse('email', t('guest.emailInvalid'));
      else {
        console.error('guest join failed', err);
        refuse(null, t('guest.failed'));
      }
    }
  };

  const field = (name: Field, type: string, autoComplete: string, extra: { hint?: string } = {}) => {
    const described = [errors[name] ? `${id}-${name}-error` : null, extra.hint ? `${id}-${name}-hint` : null].filter(Boolean).join(' ');
    return (
      <div className="field">
        <label htmlFor={`${id}-${name}`}>{t(`guest.${name}`)}</label>
        <input
          ref={refs[name]}
          id={`${id}-${name}`}
          className="input"
          name={name}
          type={type}
          autoComplete={autoComplete}
          required={name !== 'pin'}
          inputMode={name === 'pin' ? 'numeric' : undefined}
          autoFocus={name === 'name'}
          value={values[name]}
          onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={described || undefined}
        />
        {extra.hint && (
          <span id={`${id}-${name}-hint`} className="muted">
            {extra.hint}
          </span>
        )}
        {errors[name] && (
          <span id={`${id}-${name}-error`} className="field-error">
            {errors[name]}
          </span>
        )}
      </div>
    );
  };

  return (
    <section aria-labelledby={`${id}-title`} className="guest-join">
      <h2 id={`${id}-title`}>{t('guest.title')}</h2>
      <p>{t('guest.intro')}</p>
      {alert && (
        <p role="alert" className="login-notice">
          {alert}
        </p>
      )}
      <form onSubmit={onSubmit} noValidate className="login-form">
        {field('name', 'text', 'name')}
        {field('email', 'email', 'email')}
        {field('pin', 'password', 'off', { hint: t('guest.pinHint') })}
        <button type="submit" className="btn primary login-submit" aria-disabled={busy || undefined}>
          {busy ? t('guest.joining') : t('guest.submit')}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          {t('guest.signInInstead')}
        </button>
      </form>
    </section>
  );
}
