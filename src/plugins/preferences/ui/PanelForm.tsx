import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button, Form } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { PanelId } from '../state';

/**
 * A panel's frame: a form named by its heading, which takes focus when the panel opens (the user
 * chose it in the list and goes on from its top), and one Save button.
 */
export function PanelForm({
  panel,
  children,
  onSave,
  canSave,
  saving,
  status,
  hideSave,
}: {
  panel: PanelId;
  children: ReactNode;
  onSave: () => void;
  canSave: boolean;
  saving: boolean;
  status?: ReactNode;
  /** A panel with nothing to save (the integration placeholders) shows no Save button. */
  hideSave?: boolean;
}) {
  const { t } = useTranslation('preferences');
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);
  return (
    <Form
      className="prefs-form"
      aria-labelledby={id}
      onSubmit={(e) => {
        e.preventDefault();
        if (canSave && !saving) onSave();
      }}
    >
      <h2 id={id} ref={heading} tabIndex={-1} className="prefs-heading">
        {t(`panels.${panel}`)}
      </h2>
      {children}
      <div className="prefs-actions">
        {!hideSave && (
          <Button type="submit" className="btn primary" isDisabled={!canSave || saving}>
            {saving ? t('saving') : t('save')}
          </Button>
        )}
        <div role="status" className="prefs-status">
          {status}
        </div>
      </div>
    </Form>
  );
}
