/** The contact form's modes (the route's editState): a module of its own so the boot bundle carries no form code. */
export const FORM_MODES = ['CREATE', 'EDIT', 'EDIT_USER', 'EDIT_PROFILE', 'ADD_PHONE', 'AVATAR'] as const;
export type FormMode = (typeof FORM_MODES)[number];
export const isFormMode = (v: unknown): v is FormMode => typeof v === 'string' && (FORM_MODES as readonly string[]).includes(v);
