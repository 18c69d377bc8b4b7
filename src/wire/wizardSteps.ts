/** The wizard's step rules, without zod: the boot chunk (the router's guard) and the server read them. */

/** 0 welcome, 1 company choice, 2 bulk user CSV upload, 3 configure users. */
export const WIZARD_STEPS = ['welcome', 'company', 'upload', 'users'] as const;
export type WizardStepName = (typeof WIZARD_STEPS)[number];
export const LAST_STEP = WIZARD_STEPS.length - 1;

/** The step the wizard opens at: 3 once a services customer user exists, else 2 once the customer is confirmed, else 0. */
export function startStep(s: { confirmed: boolean; hasServiceUser: boolean }): number {
  if (s.hasServiceUser) return 3;
  return s.confirmed ? 2 : 0;
}

/** The step moves up or down by one, never past the first or the last. */
export function moveStep(step: number, by: -1 | 1): number {
  return Math.min(LAST_STEP, Math.max(0, step + by));
}

/** The cookie that marks the wizard completed lasts 30 s (the guard does not ask the server meanwhile). */
export const WIZARD_COMPLETED_COOKIE = 'uc-wizard-completed';
export const WIZARD_COMPLETED_COOKIE_SECONDS = 30;
