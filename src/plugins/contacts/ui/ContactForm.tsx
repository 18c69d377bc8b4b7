import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Checkbox, FieldError, Input, Label, Text, TextArea, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Api, Dialogs, Notifications, useContextSnapshot, useKernel, useService, ApiError } from '../../../kernel';
import type { ProfileEditorProps } from '../../../contracts';
import { AVATAR_MAX_BYTES, CONTACT_LIMITS, IM_TYPES, PHONE_TYPES, PROFILE_LIMITS, type ContactWire } from '../../../wire/contacts';
import { canEditUsers } from '../../../wire/roles';
import { contactKeys, fetchContact, loadProfile, ProfileSaveError, saveContact, saveProfile, uploadAvatar } from '../api';
import {
  draftFromContact,
  emptyAddress,
  emptyDraft,
  emptyEmail,
  emptyIm,
  emptyPhone,
  formatZipInput,
  isDirty,
  isProfileMode,
  markPrimaryEmail,
  markPrimaryPhone,
  numbersOnly,
  primaryEmailIndex,
  problemField,
  stateEnabled,
  toInput,
  validateDraft,
  visibleError,
  withCountry,
  type ContactDraft,
  type FieldErrors,
  type FormMode,
} from '../formModel';
import { countryOptions, US_STATES } from '../places';
import { draftFromProfile, isEmptyPlan, profileSavePlan, userIdOf, type ProfileBundle } from '../profileModel';
import { log } from '../log';

interface FieldProps {
  name: string;
  label: string;
  value: string;
  onChange(v: string): void;
  error?: string;
  maxLength?: number;
  type?: string;
  inputMode?: 'numeric' | 'tel' | 'email' | 'text';
  isRequired?: boolean;
  isDisabled?: boolean;
  isReadOnly?: boolean;
  description?: string;
  onBlur(): void;
  multiline?: boolean;
}

function Field({ name, label, value, onChange, error, maxLength, type = 'text', inputMode, isRequired, isDisabled, isReadOnly, description, onBlur, multiline }: FieldProps) {
  return (
    <TextField
      className="field"
      name={name}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
      isInvalid={!!error}
      isRequired={isRequired}
      isDisabled={isDisabled}
      isReadOnly={isReadOnly}
      maxLength={maxLength}
      type={type}
      inputMode={inputMode}
      validationBehavior="aria"
      data-field={name}
    >
      <Label>{label}</Label>
      {multiline ? <TextArea className="input" rows={3} /> : <Input className="input" />}
      {description && (
        <Text slot="description" className="contacts-muted">
          {description}
        </Text>
      )}
      <FieldError>{error}</FieldError>
    </TextField>
  );
}

/** A native select with a visible label: long lists (countries) stay fast and fully accessible. */
function NativeSelect({ label, value, onChange, options, isDisabled, name }: { label: string; value: string; onChange(v: string): void; options: ReadonlyArray<{ value: string; label: string }>; isDisabled?: boolean; name: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} className="input" value={value} disabled={isDisabled} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="contacts-fieldset">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

export interface ContactFormProps {
  mode: FormMode;
  contactId: string | undefined;
  /** Saved (with the id) or cancelled (undefined). */
  onDone(id?: string): void;
  onDirty?: ProfileEditorProps['onDirty'];
}

export function ContactForm(props: ContactFormProps) {
  return isProfileMode(props.mode) ? <ProfileForm {...props} /> : <PersonalForm {...props} />;
}

/**
 * The signed-in user's own profile: the preferences' Profile panel shows it (the ProfileEditor
 * service), the one place it is edited; the contacts screen edits colleagues (EDIT_USER) only.
 */
export function OwnProfileForm({ onDone, onDirty }: ProfileEditorProps) {
  return <ProfileForm mode="EDIT_PROFILE" contactId={undefined} onDone={(id) => onDone(id !== undefined)} onDirty={onDirty} />;
}

function Refusal({ text, onDone }: { text: string; onDone(): void }) {
  const { t } = useTranslation('contacts');
  return (
    <div className="empty-state" role="alert">
      <p>{text}</p>
      <Button className="btn" onPress={() => onDone()}>
        {t('form.cancel')}
      </Button>
    </div>
  );
}

/**
 * EDIT_PROFILE (the own profile, shown by the preferences) and EDIT_USER (a colleague, for account
 * owners and administrators): the form edits the user's profile through the profile calls, not the contact.
 */
function ProfileForm({ mode, contactId, onDone, onDirty }: ContactFormProps) {
  const api = useService(Api);
  const { t } = useTranslation('contacts');
  const { userId: me, roleId } = useContextSnapshot();
  const userId = mode === 'EDIT_PROFILE' ? me : userIdOf(contactId);
  // One's own profile is the preferences' to edit, not EDIT_USER's.
  const allowed = userId !== null && (mode === 'EDIT_PROFILE' || (userId !== me && canEditUsers(roleId)));
  const bundle = useQuery({
    queryKey: contactKeys.profile(userId ?? 0),
    enabled: allowed,
    // The form starts from what is stored now, not from a copy cached minutes ago.
    staleTime: 0,
    queryFn: ({ signal }) => loadProfile(api, userId!, signal),
  });
  if (userId === null) return <Refusal text={t('detail.notFound')} onDone={onDone} />;
  if (!allowed) return <Refusal text={t(userId === me ? 'reasons.useEditProfile' : 'reasons.adminOnly')} onDone={onDone} />;
  if (bundle.isPending) return <p className="empty-state" role="status">{t('list.loading')}</p>;
  if (!bundle.data) {
    const message = bundle.error instanceof ApiError ? bundle.error.body.message : t('profile.loadError');
    return <Refusal text={message} onDone={onDone} />;
  }
  return <FormBody mode={mode} contact={null} profile={{ userId, bundle: bundle.data }} onDone={onDone} onDirty={onDirty} />;
}

function PersonalForm({ mode, contactId, onDone }: ContactFormProps) {
  const api = useService(Api);
  const { t } = useTranslation('contacts');
  const existing = useQuery({
    queryKey: contactKeys.detail(contactId ?? ''),
    enabled: !!contactId,
    queryFn: ({ signal }) => fetchContact(api, contactId!, signal),
  });
  if (contactId && existing.isPending) return <p className="empty-state" role="status">{t('list.loading')}</p>;
  // One's own company contact is read-only but for its photo, which is the profile's.
  const ownPhoto = mode === 'AVATAR' && existing.data?.is_current_user === true;
  if (contactId && (!existing.data || (existing.data.readonly && !ownPhoto))) return <Refusal text={t(existing.data ? 'reasons.readOnly' : 'detail.notFound')} onDone={onDone} />;
  return <FormBody mode={mode} contact={existing.data ?? null} profile={null} onDone={onDone} />;
}

interface FormBodyProps {
  mode: FormMode;
  contact: ContactWire | null;
  /** In the profile modes: whose profile, as loaded. */
  profile: { userId: number; bundle: ProfileBundle } | null;
  onDone(id?: string): void;
  onDirty?: ProfileEditorProps['onDirty'];
}

function FormBody({ mode, contact, profile, onDone, onDirty }: FormBodyProps) {
  const { t, i18n } = useTranslation('contacts');
  const kernel = useKernel();
  const dialogs = useService(Dialogs);
  const notify = useService(Notifications);
  const pm = isProfileMode(mode);
  const initial = useMemo<ContactDraft>(() => {
    if (profile) return draftFromProfile(profile.bundle);
    const d = contact ? draftFromContact(contact) : emptyDraft();
    if (mode === 'ADD_PHONE') d.phones = [...d.phones, emptyPhone(d.phones.length === 0)];
    if (mode === 'EDIT' && d.phones.length === 0) d.phones = [emptyPhone(true)];
    if (mode === 'EDIT' && d.emails.length === 0) d.emails = [emptyEmail(true)];
    return d;
  }, [contact, profile, mode]);
  const [draft, setDraft] = useState(initial);
  const [file, setFile] = useState<File | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const countries = useMemo(() => [{ value: '', label: t('form.selectCountry') }, ...countryOptions(i18n.language)], [i18n.language, t]);
  const states = useMemo(() => [{ value: '', label: t('form.select') }, ...US_STATES], [t]);

  const errors = { ...validateDraft(draft, mode, file), ...serverErrors };
  const dirty = isDirty(initial, draft) || file !== null;
  const touch = (f: string) => setTouched((s) => (s.has(f) ? s : new Set(s).add(f)));
  const err = (f: string) => {
    const code = visibleError(errors, f, { submitted, touched });
    // A code this client has no words for (a newer server) still marks the field.
    return code ? t(`errors.${code}`, { defaultValue: t('errors.invalid') }) : undefined;
  };
  const set = (patch: Partial<ContactDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setServerErrors({});
  };

  useEffect(() => headingRef.current?.focus(), []);
  // Leaving with unsaved changes: the browser asks.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const cancel = async () => {
    if (dirty) {
      const answer = await dialogs.confirm({ titleKey: 'contacts:form.discardTitle', messageKey: 'contacts:form.discardMessage', confirmLabelKey: 'contacts:form.discard', cancelLabelKey: 'contacts:form.keepEditing', tone: 'danger' });
      if (!answer.confirmed) return;
    }
    onDone();
  };

  /** Checks, then saves; false when refused (the fields or a toast say why). */
  const save = async (): Promise<boolean> => {
    setSubmitted(true);
    const problems = validateDraft(draft, mode, file);
    if (Object.keys(problems).length) {
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid] input, [data-invalid] textarea')?.focus());
      return false;
    }
    setSaving(true);
    try {
      return profile ? await submitProfile(profile.userId) : await submitContact();
    } finally {
      setSaving(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save();
  };
  // A host with its own leave guard (the preferences) hears when there is something to lose.
  const latestSave = useRef(save);
  latestSave.current = save;
  useEffect(() => onDirty?.(dirty, () => latestSave.current()), [dirty, onDirty]);

  const submitContact = async (): Promise<boolean> => {
    try {
      if (mode === 'AVATAR') {
        await uploadAvatar(kernel, contact!.id, file!);
        onDone(contact!.id);
        return true;
      }
      const saved = await saveContact(kernel, contact?.id ?? null, toInput(draft));
      notify.announce(t('form.saved', { name: saved.name || t('noName') }));
      setDraft(initial); // not dirty any more
      onDone(saved.id);
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.body.details) {
        setServerErrors(Object.fromEntries(err.body.details.map((d) => [problemField(d.path), d.message as FieldErrors[string]])));
      }
      notify.toast({
        tone: 'error',
        titleKey: mode === 'AVATAR' ? 'contacts:errors.uploadTitle' : 'contacts:errors.saveTitle',
        message: err instanceof ApiError && !(err.status === 400 && err.body.details) ? err.body.message : undefined,
        messageKey: err instanceof ApiError && !(err.status === 400 && err.body.details) ? undefined : 'contacts:errors.tryAgain',
      });
      return false;
    }
  };

  const submitProfile = async (userId: number): Promise<boolean> => {
    const plan = profileSavePlan(userId, initial, draft);
    const id = `u${userId}`;
    try {
      if (!isEmptyPlan(plan)) await saveProfile(kernel, plan);
      notify.announce(t('form.saved', { name: `${draft.firstName.trim()} ${draft.lastName.trim()}`.trim() || t('noName') }));
      setDraft(initial); // not dirty any more
      onDone(id);
      return true;
    } catch (e) {
      const step = e instanceof ProfileSaveError ? e.step : null;
      const cause = e instanceof ProfileSaveError ? e.cause : e;
      const details = cause instanceof ApiError && cause.status === 400 ? (cause.body.details ?? []) : [];
      const part = step ? plan[step] : null;
      const fields = details.map((d) => [part?.fieldOf(d.path) ?? null, d.message] as const);
      const shown = fields.filter((f): f is readonly [string, string] => f[0] !== null);
      if (shown.length) setServerErrors(Object.fromEntries(shown.map(([f, code]) => [f, code as FieldErrors[string]])));
      // Problems the form can point at are shown there; anything else in the server's words.
      const atFields = shown.length > 0 && shown.length === fields.length;
      notify.toast({
        tone: 'error',
        titleKey: mode === 'EDIT_PROFILE' ? 'contacts:errors.profileTitle' : 'contacts:errors.userTitle',
        message: !atFields && cause instanceof ApiError ? cause.body.message : undefined,
        messageKey: atFields ? 'contacts:errors.checkFields' : cause instanceof ApiError ? undefined : 'contacts:errors.tryAgain',
      });
      if (!(cause instanceof ApiError)) log.error('saving the profile failed', cause);
      return false;
    }
  };

  // Enter without Shift in an input never submits a form (the product's rule for all forms);
  // Ctrl/⌘+Enter saves from anywhere.
  const onFormKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' || (e.target as HTMLElement).tagName !== 'INPUT') return;
    if (e.ctrlKey || e.metaKey) {
      e.preventDefault();
      formRef.current?.requestSubmit();
    } else if (!e.shiftKey) e.preventDefault();
  };

  const titleKey = { CREATE: 'form.titleCreate', EDIT: 'form.titleEdit', EDIT_USER: 'form.titleUser', EDIT_PROFILE: 'form.titleProfile', ADD_PHONE: 'form.titleAddPhone', AVATAR: 'form.titleAvatar' }[mode];
  const titleName = profile ? `${profile.bundle.profile.first_name} ${profile.bundle.profile.last_name}`.trim() : contact?.name;
  const primaryEmail = primaryEmailIndex(draft.emails);
  const showAll = mode === 'CREATE' || mode === 'EDIT' || mode === 'EDIT_USER' || mode === 'EDIT_PROFILE';
  const phoneTypes = PHONE_TYPES.filter((p) => p !== 'E911').map((p) => ({ value: p, label: t(`phoneType.${p}`) }));
  const identityError = visibleError(errors, '(root)', { submitted, touched });

  return (
    <form ref={formRef} className="contacts-form" aria-labelledby="contacts-detail-heading" noValidate onSubmit={(e) => void submit(e)} onKeyDown={onFormKeyDown}>
      <h2 id="contacts-detail-heading" ref={headingRef} tabIndex={-1}>
        {t(titleKey, { name: titleName || t('noName') })}
      </h2>
      {identityError && (
        <p className="field-error" role="alert">
          {t(`errors.${identityError}`)}
        </p>
      )}

      {mode === 'AVATAR' && (
        <div className="field">
          <label htmlFor="contacts-avatar-file">{t('form.photo')}</label>
          <input
            id="contacts-avatar-file"
            type="file"
            accept="image/*"
            aria-invalid={!!err('avatar') || undefined}
            aria-describedby="contacts-avatar-help"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              touch('avatar');
            }}
          />
          <p id="contacts-avatar-help" className="contacts-muted">
            {t('form.photoHelp', { size: Math.round(AVATAR_MAX_BYTES / 1024 / 1024) })}
          </p>
          {err('avatar') && <p className="field-error">{err('avatar')}</p>}
        </div>
      )}

      {showAll && (
        <Section title={t('form.name')}>
          <div className="contacts-grid">
            <Field name="firstName" label={t('form.firstName')} value={draft.firstName} onChange={(v) => set({ firstName: v })} onBlur={() => touch('firstName')} error={err('firstName')} maxLength={CONTACT_LIMITS.name} isRequired={pm} />
            <Field name="lastName" label={t('form.lastName')} value={draft.lastName} onChange={(v) => set({ lastName: v })} onBlur={() => touch('lastName')} error={err('lastName')} maxLength={CONTACT_LIMITS.name} isRequired={pm} />
            {pm && <Field name="alias" label={t('form.alias')} value={draft.alias} onChange={(v) => set({ alias: v })} onBlur={() => touch('alias')} error={err('alias')} maxLength={PROFILE_LIMITS.alias} />}
            <Field name="company" label={t('form.company')} value={draft.company} onChange={(v) => set({ company: v })} onBlur={() => touch('company')} error={err('company')} maxLength={CONTACT_LIMITS.company} />
            {/* A user's profile has no job title: offering one would drop what was typed. */}
            {!pm && <Field name="title" label={t('form.jobTitle')} value={draft.title} onChange={(v) => set({ title: v })} onBlur={() => touch('title')} maxLength={CONTACT_LIMITS.title} />}
          </div>
        </Section>
      )}

      {(showAll || mode === 'ADD_PHONE') && (
        <Section title={t('form.phones')}>
          {draft.phones.map((p, i) =>
            p.source === 'extension' ? (
              // The organisation's extension (the SIP account): shown, and it may be the primary, but not changed here.
              <div key={i} className="contacts-row-fields" role="group" aria-label={t('form.phoneN', { n: i + 1 })}>
                <Field name={`phones.${i}.extension`} label={t('form.extension')} value={p.extension} isReadOnly description={t('form.extensionHelp')} error={err(`phones.${i}.extension`)} onBlur={() => undefined} onChange={() => undefined} />
                <Checkbox className="contacts-checkbox" isSelected={p.isPrimary} onChange={() => set({ phones: markPrimaryPhone(draft.phones, i) })}>
                  <span className="contacts-box" aria-hidden="true">{p.isPrimary ? '✓' : ''}</span>
                  {t('form.primary')}
                </Checkbox>
              </div>
            ) : (
            <div key={i} className="contacts-row-fields" role="group" aria-label={t('form.phoneN', { n: i + 1 })}>
              <Field name={`phones.${i}.number`} label={t('form.number')} type="tel" inputMode="tel" value={p.number} maxLength={CONTACT_LIMITS.phone} error={err(`phones.${i}.number`)} onBlur={() => touch(`phones.${i}.number`)} onChange={(v) => set({ phones: draft.phones.map((x, j) => (j === i ? { ...x, number: v } : x)) })} />
              <Field name={`phones.${i}.extension`} label={t('form.extension')} inputMode="numeric" value={p.extension} maxLength={CONTACT_LIMITS.extension} error={err(`phones.${i}.extension`)} onBlur={() => touch(`phones.${i}.extension`)} onChange={(v) => set({ phones: draft.phones.map((x, j) => (j === i ? { ...x, extension: numbersOnly(v) } : x)) })} />
              <NativeSelect name={`phones.${i}.type`} label={t('form.type')} value={p.type} options={phoneTypes} onChange={(v) => set({ phones: draft.phones.map((x, j) => (j === i ? { ...x, type: v as typeof p.type } : x)) })} />
              {p.type === 'custom' && <Field name={`phones.${i}.customType`} label={t('form.customType')} value={p.customType} maxLength={60} onBlur={() => undefined} onChange={(v) => set({ phones: draft.phones.map((x, j) => (j === i ? { ...x, customType: v } : x)) })} />}
              <Checkbox className="contacts-checkbox" isSelected={p.isPrimary} onChange={() => set({ phones: markPrimaryPhone(draft.phones, i) })}>
                <span className="contacts-box" aria-hidden="true">{p.isPrimary ? '✓' : ''}</span>
                {t('form.primary')}
              </Checkbox>
              <Button className="btn" aria-label={t('form.removePhoneN', { n: i + 1 })} onPress={() => set({ phones: draft.phones.filter((_, j) => j !== i) })}>
                {t('form.remove')}
              </Button>
            </div>
            ),
          )}
          <Button className="btn" onPress={() => set({ phones: [...draft.phones, emptyPhone(draft.phones.length === 0)] })}>
            {t('form.addPhone')}
          </Button>
        </Section>
      )}

      {showAll && (
        <>
          <Section title={t('form.emails')}>
            {draft.emails.map((e, i) => (
              <div key={i} className="contacts-row-fields" role="group" aria-label={t('form.emailN', { n: i + 1 })}>
                <Field name={`emails.${i}.email`} label={t('form.email')} type="email" inputMode="email" value={e.email} maxLength={CONTACT_LIMITS.email} error={err(`emails.${i}.email`)} isRequired={pm && i === primaryEmail} isDisabled={!pm && e.source !== 'personal'} onBlur={() => touch(`emails.${i}.email`)} onChange={(v) => set({ emails: draft.emails.map((x, j) => (j === i ? { ...x, email: v } : x)) })} />
                <Checkbox className="contacts-checkbox" isSelected={e.isDefault} onChange={() => set({ emails: markPrimaryEmail(draft.emails, i) })}>
                  <span className="contacts-box" aria-hidden="true">{e.isDefault ? '✓' : ''}</span>
                  {t('form.primary')}
                </Checkbox>
                <Button className="btn" aria-label={t('form.removeEmailN', { n: i + 1 })} onPress={() => set({ emails: draft.emails.filter((_, j) => j !== i) })}>
                  {t('form.remove')}
                </Button>
              </div>
            ))}
            <Button className="btn" onPress={() => set({ emails: [...draft.emails, emptyEmail(draft.emails.length === 0)] })}>
              {t('form.addEmail')}
            </Button>
          </Section>

          <Section title={t('form.addresses')}>
            {draft.addresses.map((a, i) => {
              const upd = (patch: Partial<typeof a>) => set({ addresses: draft.addresses.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
              return (
                <div key={i} className="contacts-grid" role="group" aria-label={t('form.addressN', { n: i + 1 })}>
                  <Field name={`addresses.${i}.street1`} label={t('form.street1')} value={a.street1} maxLength={CONTACT_LIMITS.street} onBlur={() => undefined} onChange={(v) => upd({ street1: v })} />
                  <Field name={`addresses.${i}.street2`} label={t('form.street2')} value={a.street2} maxLength={CONTACT_LIMITS.street} onBlur={() => undefined} onChange={(v) => upd({ street2: v })} />
                  <Field name={`addresses.${i}.aptNumber`} label={t('form.apt')} value={a.aptNumber} maxLength={30} onBlur={() => undefined} onChange={(v) => upd({ aptNumber: v })} />
                  <Field name={`addresses.${i}.city`} label={t('form.city')} value={a.city} maxLength={CONTACT_LIMITS.city} onBlur={() => undefined} onChange={(v) => upd({ city: v })} />
                  <NativeSelect name={`addresses.${i}.country`} label={t('form.country')} value={a.country} options={countries} onChange={(v) => set({ addresses: draft.addresses.map((x, j) => (j === i ? withCountry(x, v) : x)) })} />
                  <NativeSelect name={`addresses.${i}.state`} label={t('form.state')} value={a.state} options={states} isDisabled={!stateEnabled(a)} onChange={(v) => upd({ state: v })} />
                  <Field name={`addresses.${i}.zip`} label={t('form.zip')} value={a.zip} maxLength={CONTACT_LIMITS.zip} error={err(`addresses.${i}.zip`)} onBlur={() => touch(`addresses.${i}.zip`)} onChange={(v) => upd({ zip: formatZipInput(v) })} />
                  {/* A user has one profile address: it is emptied, not removed, and there is no second one. */}
                  {!pm && (
                    <Button className="btn" aria-label={t('form.removeAddressN', { n: i + 1 })} onPress={() => set({ addresses: draft.addresses.filter((_, j) => j !== i) })}>
                      {t('form.remove')}
                    </Button>
                  )}
                </div>
              );
            })}
            {!pm && (
              <Button className="btn" onPress={() => set({ addresses: [...draft.addresses, emptyAddress()] })}>
                {t('form.addAddress')}
              </Button>
            )}
          </Section>
        </>
      )}

      {/* Messengers, birthday and notes are a personal contact's; a user's profile has none of them. */}
      {showAll && !pm && (
        <>
          <Section title={t('form.ims')}>
            {draft.ims.map((m, i) => (
              <div key={i} className="contacts-row-fields" role="group" aria-label={t('form.imN', { n: i + 1 })}>
                <NativeSelect name={`ims.${i}.type`} label={t('form.imType')} value={m.type} options={[{ value: '', label: t('form.select') }, ...IM_TYPES.map((x) => ({ value: x, label: t(`imType.${x}`) }))]} onChange={(v) => set({ ims: draft.ims.map((x, j) => (j === i ? { ...x, type: v } : x)) })} />
                <Field name={`ims.${i}.name`} label={t('form.imName')} value={m.name} maxLength={CONTACT_LIMITS.im} error={err(`ims.${i}.name`)} onBlur={() => touch(`ims.${i}.name`)} onChange={(v) => set({ ims: draft.ims.map((x, j) => (j === i ? { ...x, name: v } : x)) })} />
                <Button className="btn" aria-label={t('form.removeImN', { n: i + 1 })} onPress={() => set({ ims: draft.ims.filter((_, j) => j !== i) })}>
                  {t('form.remove')}
                </Button>
              </div>
            ))}
            <Button className="btn" onPress={() => set({ ims: [...draft.ims, emptyIm()] })}>
              {t('form.addIm')}
            </Button>
          </Section>

          <Section title={t('form.birthday')}>
            <div className="contacts-row-fields">
              {(['day', 'month', 'year'] as const).map((k) => (
                <Field key={k} name={`birthday.${k}`} label={t(`form.${k}`)} inputMode="numeric" maxLength={k === 'year' ? 4 : 2} value={draft.birthday[k]} error={k === 'day' ? err('birthday') : undefined} onBlur={() => touch('birthday')} onChange={(v) => set({ birthday: { ...draft.birthday, [k]: numbersOnly(v) } })} />
              ))}
            </div>
          </Section>

          <Field name="notes" label={t('form.notes')} value={draft.notes} multiline maxLength={CONTACT_LIMITS.notes} onBlur={() => undefined} onChange={(v) => set({ notes: v })} />
        </>
      )}

      <div className="contacts-form-actions">
        <Button type="submit" className="btn primary" isDisabled={saving}>
          {mode === 'AVATAR' ? t('form.upload') : t('form.save')}
        </Button>
        <Button className="btn" onPress={() => void cancel()}>
          {t('form.cancel')}
        </Button>
      </div>
    </form>
  );
}
