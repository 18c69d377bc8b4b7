import { proxy, ref } from 'valtio';
import type { CompanyAccount, ImportReport, OrgUser, ServiceUser, WizardState } from '../../wire/wizard';

export const WIZARD_PATH = '/configuration';

/** The bulk upload's states, as the specification numbers them. */
export const UPLOAD = { IDLE: 1, UPLOADING: 2, ERROR: 3 } as const;
export type UploadStatus = (typeof UPLOAD)[keyof typeof UPLOAD];

/** Nothing known, nothing chosen: the store starts so, and returns to it when the plugin stops. */
export const initialWizardState = () => ({
  /** The caller is a reseller partner administrator (profile): the commands and the guard read it. */
  available: false,
  /** `GET /v1/wizard`, once asked (the guard asks at the first navigation). */
  info: null as WizardState | null,
  /** The step on screen (0 welcome, 1 company, 2 upload, 3 users); null until the screen has opened. */
  step: null as number | null,
  companies: null as CompanyAccount[] | null,
  companiesFailed: false,
  /** The customer picked in the select view (its customerId). */
  picked: null as string | null,
  /** The company step shows the select view even though the configured customer is listed ("Choose another"). */
  changing: false,
  saving: false,
  /** The bulk upload: one file at a time; a new one replaces it. */
  upload: {
    status: 1 as UploadStatus,
    file: null as File | null,
    /** 0…1 while uploading. */
    progress: 0,
    /** An i18n key of the chunk's strings (with `errorValues`), for the error state and the non-CSV warning. */
    errorKey: null as string | null,
    errorValues: {} as Record<string, unknown>,
    warningKey: null as string | null,
    report: null as ImportReport | null,
  },
  users: null as OrgUser[] | null,
  serviceUsers: null as ServiceUser[] | null,
  /** The configure-users step's choices: Username → services user id (null: none). */
  mapping: {} as Record<string, number | null>,
  usersErrorKey: null as string | null,
  /** The set-password link just issued, shown in its dialog (the token is nowhere else). */
  link: null as { username: string; url: string; expiresAt: string } | null,
  /** Who a link is being made for, and why the last one failed (an i18n key with `linkErrorValues`). */
  linkFor: null as string | null,
  linkErrorKey: null as string | null,
  linkErrorValues: {} as Record<string, unknown>,
});

/** Live state: the commands and the guard read it at boot; the lazy chunk writes it. */
export const wizardState = proxy(initialWizardState());

export function resetWizardState(): void {
  Object.assign(wizardState, initialWizardState());
}

/**
 * Asked by the set-password command's options when the organisation's users are not loaded yet
 * (the palette opened away from the configure-users step): the later part sets it to load them.
 */
export const usersWanted: { load: (() => void) | null } = { load: null };

/** The file, held as is (a File in a proxy would be wrapped). */
export const heldFile = (f: File | null) => (f ? ref(f) : null);
