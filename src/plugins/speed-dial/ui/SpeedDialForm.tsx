import { useEffect, useRef, useState } from 'react';
import { Button, Checkbox, Dialog, FieldError, Form, Heading, Input, Label, Modal, ModalOverlay, Text, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Notifications, useContextSnapshot, useKernel } from '../../../kernel';
import { LABEL_MAX } from '../../../wire/speedDial';
import { save } from '../api';
import { mayShare, validateForm, type FormErrors, type FormField } from '../model';
import { sdState, type FormStart } from '../state';
import './speedDial.css';

const close = () => {
  sdState.form = null;
};

interface FieldProps {
  name: FormField;
  label: string;
  value: string;
  onChange(v: string): void;
  error?: string;
  description?: string;
  inputMode?: 'numeric' | 'tel' | 'text';
  autoFocus?: boolean;
}

function Field({ name, label, value, onChange, error, description, inputMode, autoFocus }: FieldProps) {
  return (
    <TextField className="field" name={name} value={value} onChange={onChange} isInvalid={!!error} validationBehavior="aria" autoFocus={autoFocus}>
      <Label>{label}</Label>
      <Input className="input" inputMode={inputMode} autoComplete="off" />
      {description && (
        <Text slot="description" className="sd-muted">
          {description}
        </Text>
      )}
      <FieldError>{error}</FieldError>
    </TextField>
  );
}

/**
 * The edit form, a dialog: shortcut (empty: the first free one), label, number and, for account
 * owners and administrators, sharing with the organisation. A refusal (the form's own checks or the
 * server's, e.g. the 400 naming a shortcut in use) is shown at its field; what was typed stays.
 */
export function SpeedDialForm({ start }: { start: FormStart }) {
  const { t } = useTranslation('speed-dial');
  const kernel = useKernel();
  const { roleId } = useContextSnapshot();
  const [v, setV] = useState(start);
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const canShare = mayShare(roleId);
  const say = (f: FormField) => (errors[f] ? t(errors[f].key, errors[f].values) : undefined);
  const set = (f: 'shortcut' | 'label' | 'number') => (value: string) => {
    setV((old) => ({ ...old, [f]: value }));
    setErrors((old) => ({ ...old, [f]: undefined, form: undefined }));
  };
  // The first field refused gets the focus once it shows its message, so that the message is read out with it.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  const focusFirstError = () => setRefusals((n) => n + 1);

  const submit = async () => {
    const own = validateForm(v);
    if (Object.keys(own).length) {
      setErrors(own);
      focusFirstError();
      return;
    }
    setBusy(true);
    const refused = await save(kernel, v);
    setBusy(false);
    if (refused) {
      setErrors(refused);
      focusFirstError();
      return;
    }
    kernel.get(Notifications).announce(t('saved'));
    close();
  };

  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && close()} className="modal-overlay">
      <Modal className="modal sd-modal">
        <Dialog className="dialog">
          <Heading slot="title">{t(v.id === null ? 'form.newTitle' : 'form.editTitle')}</Heading>
          <Form
            ref={form}
            className="sd-form"
            onSubmit={(e) => {
              e.preventDefault();
              if (!busy) void submit();
            }}
          >
            <Field name="shortcut" label={t('form.shortcut')} value={v.shortcut} onChange={set('shortcut')} error={say('shortcut')} description={t('form.shortcutHelp')} inputMode="numeric" autoFocus />
            <Field name="label" label={t('form.label')} value={v.label} onChange={set('label')} error={say('label')} description={t('form.labelHelp', { max: LABEL_MAX })} />
            <Field name="number" label={t('form.number')} value={v.number} onChange={set('number')} error={say('number')} description={t('form.numberHelp')} inputMode="tel" />
            {canShare && (
              <Checkbox
                className="checkbox"
                isSelected={v.shared}
                onChange={(shared) => {
                  setV((old) => ({ ...old, shared }));
                  setErrors((old) => ({ ...old, shared: undefined }));
                }}
              >
                <span className="checkbox-box" aria-hidden="true" />
                {t('form.shared')}
              </Checkbox>
            )}
            {errors.shared && (
              <p className="field-error" role="alert">
                {say('shared')}
              </p>
            )}
            {errors.form && (
              <p className="field-error" role="alert">
                {say('form')}
              </p>
            )}
            <div className="dialog-actions">
              <Button className="btn" onPress={close}>
                {t('form.cancel')}
              </Button>
              <Button className="btn primary" type="submit" isDisabled={busy}>
                {t('form.save')}
              </Button>
            </div>
          </Form>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
