import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PanelId } from '../state';
import { log } from '../log';
import { usePanelForm } from './usePanelForm';

/** What the panel's status line says: a string key of the panel's strings, in red when it went wrong. */
export interface PanelStatus {
  key: string;
  error?: boolean;
}

export interface SaveOptions {
  dirty: boolean;
  /** False while what was typed cannot be saved (a cut-off missing, a size that is not a number): Save stays off. */
  ready?: boolean;
  /** Runs before `store`: false stops the save, the panel showing why at its fields (nothing is logged). */
  check?: () => boolean;
  /** Stores the draft; a throw is a failed save (logged as `logAs`, the panel says "not saved"). */
  store: () => Promise<void>;
  discard: () => void;
  logAs: string;
}

/**
 * A settings panel's Save: the saving flag, the "Saved" or "not saved" line, and the leave guard
 * (usePanelForm), in one place. Spread `form` on the PanelForm; `setStatus` is for the panel's
 * other actions, and `null` clears the line once the user edits again.
 */
export function useSave(panel: PanelId, { dirty, ready = true, check, store, discard, logAs }: SaveOptions) {
  const { t } = useTranslation('preferences');
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<PanelStatus | null>(null);

  const save = async (): Promise<boolean> => {
    if (!ready || (check && !check())) return false;
    setSaving(true);
    try {
      await store();
      setStatus({ key: 'saved' });
      return true;
    } catch (err) {
      log.error(logAs, err);
      setStatus({ key: 'saveFailed', error: true });
      return false;
    } finally {
      setSaving(false);
    }
  };
  usePanelForm(panel, { dirty, save, discard });

  const line: ReactNode = status && <span className={status.error ? 'prefs-error' : undefined}>{t(status.key)}</span>;
  return { form: { panel, onSave: () => void save(), canSave: dirty && ready, saving, status: line }, setStatus };
}
