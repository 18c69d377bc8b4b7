import type { ComponentType } from 'react';
import type { SessionInfo } from '../../kernel';
import { passwordChecks, type PasswordRule } from '../../wire/password';
import { PANEL_IDS, type PanelId } from './state';

/** One row of the panel registry (ui/registry.ts). */
export interface PanelRow {
  id: PanelId;
  /** The panel: a form built on PanelForm and usePanelForm (ui/PanelForm.tsx). */
  component: ComponentType;
  /** Whether this user has the panel (calling: only when calling is configured). Absent: everyone. */
  when?: (session: SessionInfo) => boolean;
}

export const panelTitleKey = (id: PanelId) => `preferences:panels.${id}`;

/** The panels this user has, in the specification's order whatever the registry's. */
export const panelsFor = (rows: readonly PanelRow[], session: SessionInfo): PanelRow[] =>
  PANEL_IDS.flatMap((id) => rows.filter((r) => r.id === id && (!r.when || r.when(session))));

/** The panel `?panel=` names when the user has it, else the first. */
export const shownPanel = (panels: readonly PanelRow[], asked: PanelId | undefined): PanelRow | undefined => panels.find((p) => p.id === asked) ?? panels[0];

/** The password form's live checklist: the specification's rules plus the confirmation matching. */
export function passwordForm(f: { current: string; next: string; confirm: string }): { checks: { rule: PasswordRule | 'match'; met: boolean }[]; ready: boolean } {
  const checks = [...passwordChecks(f.next), { rule: 'match' as const, met: f.next !== '' && f.next === f.confirm }];
  return { checks, ready: f.current !== '' && checks.every((c) => c.met) };
}
