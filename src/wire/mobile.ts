import * as z from 'zod/mini';

/**
 * How long a mobile sign-in code lives. The download page asks for a new one before this runs
 * out, so the code on screen always works; a photographed code is useless a minute later.
 */
export const MOBILE_CODE_TTL_SECONDS = 60;
/** The page renews its code this long before it expires (network and scanning time). */
export const MOBILE_CODE_RENEW_MARGIN_SECONDS = 10;

/** `GET /v1/mobile-auth`: a fresh single-use code for the signed-in user's mobile app. */
export const MobileAuthResponse = z.object({
  access_token: z.string(),
  expires_in: z.int(),
});
export type MobileAuthResponse = z.infer<typeof MobileAuthResponse>;

/** `POST /login/mobile`: the mobile app trades the scanned code for a session, once. */
export const MobileSignInRequest = z.object({
  code: z.string().check(z.minLength(1, 'The sign-in code is required'), z.maxLength(128), z.regex(/^[A-Za-z0-9_-]+$/, 'The sign-in code is malformed')),
});
export type MobileSignInRequest = z.input<typeof MobileSignInRequest>;

/** Store links shown on the page (`GET /v1/mobile-apps`); a link the deployment has not set is absent. */
export const MobileApps = z.object({
  ios: z.optional(z.string()),
  android: z.optional(z.string()),
});
export type MobileApps = z.infer<typeof MobileApps>;

/**
 * What the QR code holds: the server to talk to and the code, as the mobile app's sign-in link.
 * The server is the page's own origin: the app reaches the API where the browser does.
 */
export const mobileSignInLink = (server: string, code: string): string =>
  `ucclient://sign-in?server=${encodeURIComponent(server)}&code=${encodeURIComponent(code)}`;
