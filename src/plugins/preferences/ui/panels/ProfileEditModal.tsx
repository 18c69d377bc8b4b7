import { useState, type KeyboardEvent } from 'react';
import { Button, Dialog, FieldError, Form, Heading, Input, Label, Modal, ModalOverlay, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ApiError, Notifications, useKernel, useService } from '../../../../kernel';
import type { Profile } from '../../../../wire/profile';
import { saveOwnProfile } from '../../api';
import { log } from '../../log';
import { draftOf, fieldOfPath, profilePatch, validateProfile, type ProfileDraft, type ProfileField } from '../../profileForm';
import { usePanelForm } from '../usePanelForm';

const FIELDS: { field: ProfileField; labelKey: string; autoComplete: string; type?: string }[] = [
  { field: 'firstName', labelKey: 'profile.firstName', autoComplete: 'given-name' },
  { field: 'lastName', labelKey: 'profile.lastName', autoComplete: 'family-name' },
  { field: 'alias', labelKey: 'profile.alias', autoComplete: 'nickname' },
  { field: 'company', labelKey: 'profile.company', autoComplete: 'organization' },
  { field: 'email', labelKey: 'profile.email', autoComplete: 'email', type: 'email' },
];

/** The edit-profile modal: the profile's own fields; a failed save keeps what was typed and says why (the catalogue's texts). */
export function ProfileEditModal({ profile, onClose }: { profile: Profile; onClose: () => void }) {
  const { t } = useTranslation('preferences');
  const kernel = useKernel();
  const notify = useService(Notifications);
  const initial = draftOf(profile);
  const [draft, setDraft] = useState<ProfileDraft>(initial);
  const [errors, setErrors] = useState<Partial<Record<ProfileField, string>>>({});
  const [saving, setSaving] = useState(false);
  const patch = profilePatch(initial, draft);
  const dirty = Object.keys(patch).length > 0;

  const save = async (): Promise<boolean> => {
    const invalid = validateProfile(draft);
    if (Object.keys(invalid).length) {
      setErrors(Object.fromEntries(Object.entries(invalid).map(([f, e]) => [f, t(`profile.${e}`)])));
      return false;
    }
    if (!dirty) return (onClose(), true);
    setSaving(true);
    try {
      await saveOwnProfile(kernel, patch);
      notify.announce(t('profile.saved'));
      onClose();
      return true;
    } catch (err) {
      // Problems the form can point at go to their fields; the toast says the rest in the server's words.
      const details = err instanceof ApiError && err.status === 400 ? (err.body.details ?? []) : [];
      const atFields = details.map((d) => [fieldOfPath(d.path), d.message] as const).filter((d): d is readonly [ProfileField, string] => d[0] !== null);
      if (atFields.length) setErrors(Object.fromEntries(atFields));
      notify.toast({
        tone: 'error',
        titleKey: 'preferences:profile.saveFailedTitle',
        message: err instanceof ApiError && !atFields.length ? err.body.message : undefined,
        messageKey: atFields.length ? 'preferences:profile.checkFields' : err instanceof ApiError ? undefined : 'preferences:profile.tryAgain',
      });
      if (!(err instanceof ApiError)) log.error('saving the profile', err);
      return false;
    } finally {
      setSaving(false);
    }
  };
  usePanelForm('profile', { dirty, save, discard: onClose });

  // Enter in a field does not submit (the product's rule for forms); Ctrl/⌘+Enter saves from anywhere.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter' || (e.target as HTMLElement).tagName !== 'INPUT') return;
    e.preventDefault();
    if (e.ctrlKey || e.metaKey) void save();
  };

  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && !saving && onClose()} isDismissable={!saving} isKeyboardDismissDisabled={saving} className="modal-overlay">
      <Modal className="modal">
        <Dialog className="dialog">
          <Heading slot="title">{t('profile.edit')}</Heading>
          {/* The fields' keys, caught as they bubble: Form takes no key handler. */}
          <div onKeyDown={onKeyDown}>
          <Form
            className="prefs-form"
            validationBehavior="aria"
            validationErrors={errors}
            onSubmit={(e) => {
              e.preventDefault();
              if (!saving) void save();
            }}
          >
            {FIELDS.map(({ field, labelKey, autoComplete, type }) => (
              <TextField
                key={field}
                name={field}
                className="field"
                type={type}
                autoFocus={field === 'firstName'}
                value={draft[field]}
                autoComplete={autoComplete}
                isRequired={field !== 'alias' && field !== 'company'}
                onChange={(v) => (setDraft((d) => ({ ...d, [field]: v })), setErrors(({ [field]: _, ...rest }) => rest))}
              >
                <Label>{t(labelKey)}</Label>
                <Input />
                <FieldError className="field-error" />
              </TextField>
            ))}
            <div className="dialog-actions">
              <Button className="btn" onPress={onClose} isDisabled={saving}>
                {t('profile.cancel')}
              </Button>
              <Button type="submit" className="btn primary" isDisabled={saving}>
                {saving ? t('saving') : t('save')}
              </Button>
            </div>
          </Form>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
