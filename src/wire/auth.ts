import * as z from 'zod/mini';

export const LoginRequest = z.object({
  username: z.string().check(z.trim(), z.minLength(1, 'Username is required'), z.maxLength(128)),
  password: z.string().check(z.minLength(1, 'Password is required'), z.maxLength(256)),
  remember: z._default(z.boolean(), false),
});
export type LoginRequest = z.input<typeof LoginRequest>;

/** Access tokens are short-lived; renewal (`GET /v1/access-token`) uses the httpOnly refresh cookie set at login. */
export const AccessTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.int(),
  user_id: z.int(),
});
export type AccessTokenResponse = z.infer<typeof AccessTokenResponse>;

/** A token's `sub` must start with one of these: `user:<id>` for a user (non-empty id), `guest:<email>` for a guest. */
export const JWT_USER_PREFIX = 'user:';
export const JWT_GUEST_PREFIX = 'guest:';
export const REFRESH_COOKIE = 'uc_refresh';
