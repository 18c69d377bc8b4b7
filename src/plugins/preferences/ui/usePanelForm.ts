import { useEffect, useRef } from 'react';
import { ref } from 'valtio';
import { preferencesState, type PanelId } from '../state';

/**
 * The one unsaved-changes mechanism of the panels: while `dirty`, the screen's leave guard (another
 * panel, another route, a palette command that navigates, a reload or closing the tab) asks the
 * user to save, discard or stay, and saves through `save` (false: it failed, the user stays).
 */
export function usePanelForm(panel: PanelId, form: { dirty: boolean; save: () => Promise<boolean>; discard: () => void }): void {
  const latest = useRef(form);
  latest.current = form;
  useEffect(() => {
    if (form.dirty) preferencesState.unsaved = ref({ panel, save: () => latest.current.save(), discard: () => latest.current.discard() });
    else if (preferencesState.unsaved?.panel === panel) preferencesState.unsaved = null;
  }, [form.dirty, panel]);
  useEffect(
    () => () => {
      if (preferencesState.unsaved?.panel === panel) preferencesState.unsaved = null;
    },
    [panel],
  );
}
