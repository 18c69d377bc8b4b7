import * as z from 'zod/mini';
import { SETUP_TOKEN_PATTERN } from './passwordSetupLink';

export { PASSWORD_SETUP_PATH, PASSWORD_SETUP_TTL_SECONDS, passwordSetupUrl, setupTokenFromHash } from './passwordSetupLink';

const Token = z.string().check(z.regex(SETUP_TOKEN_PATTERN, 'The link is not complete: copy all of it'));

/** `POST /v1/organizations/{orgId}/users/{username}/password-setup`: a new one-time link's token. */
export const PasswordSetupIssued = z.object({ username: z.string(), token: z.string(), expires_at: z.string() });
export type PasswordSetupIssued = z.infer<typeof PasswordSetupIssued>;

/** `POST /v1/password-setup/check`: whose link it is, before a password is chosen. */
export const PasswordSetupCheck = z.object({ token: Token });
export const PasswordSetupInfo = z.object({ username: z.string(), name: z.string(), expires_at: z.string() });
export type PasswordSetupInfo = z.infer<typeof PasswordSetupInfo>;

/** `POST /v1/password-setup`: the chosen password (the rules of wire/password.ts); answers a session. */
export const PasswordSetupRequest = z.object({ token: Token, password: z.string().check(z.maxLength(256)) });
export type PasswordSetupRequest = z.infer<typeof PasswordSetupRequest>;
