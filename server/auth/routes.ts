import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AccessTokenResponse, LoginRequest, REFRESH_COOKIE } from '../../src/wire/auth';
import { MobileSignInRequest } from '../../src/wire/mobile';
import { PasswordSetupCheck, PasswordSetupRequest, type PasswordSetupInfo } from '../../src/wire/passwordSetup';
import { checkSetupToken, isUnknownToken, redeemSetupToken } from '../users/password-setup';
import { redeemMobileCode } from '../mobile/repository';
import { accountByUsername } from './repository';
import { verifyAgainstDummy, verifyPassword } from './passwords';
import { createSession, revokeSession, sessionUser } from './sessions';
import { blockedFor, clearAccount, loginKeys, recordFailure } from './throttle';
import { ACCESS_TOKEN_TTL_SECONDS } from './tokens';
import { ApiError, parseOrThrow } from '../errors';
import type { RouteContext } from '../context';

export const LOGIN_FAILED_MESSAGE = 'Login Failed: Please try again.';

function refreshCookieOptions(request: FastifyRequest, maxAgeSeconds?: number): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    // Browsers drop Secure cookies on plain-http origins, and local runs are plain http.
    secure: request.protocol === 'https',
    ...(maxAgeSeconds ? { maxAge: maxAgeSeconds } : {}),
  };
}

export function registerAuthRoutes(app: FastifyInstance, { db, tokens }: RouteContext): void {
  const accessTokenFor = async (userId: number, sessionId: string): Promise<AccessTokenResponse> => ({
    access_token: await tokens.signAccessToken(userId, sessionId),
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    user_id: userId,
  });

  const throttled = (reply: FastifyReply, seconds: number) => {
    reply.header('retry-after', String(seconds));
    return new ApiError(429, 'too_many_attempts', `Too many failed sign-ins: try again in ${seconds} seconds`, undefined, seconds);
  };

  app.post('/login', async (request, reply) => {
    const body = parseOrThrow(LoginRequest, request.body, 'login request');
    const keys = loginKeys(body.username, request.ip);
    // A blocked key is refused before the password is looked at, so guessing on gains nothing.
    const wait = await blockedFor(db, keys);
    if (wait > 0) {
      request.log.warn({ username: body.username, ip: request.ip, wait }, 'login throttled');
      throw throttled(reply, wait);
    }
    const user = await accountByUsername(db, body.username);
    const ok = user ? await verifyPassword(body.password, user.password_hash) : await verifyAgainstDummy(body.password);
    // One answer for a wrong password and an unknown user: no way to probe for usernames.
    if (!user || !ok) {
      const delay = await recordFailure(db, keys);
      request.log.info({ username: body.username, ip: request.ip, delay }, 'login failed');
      // The failure that starts a wait says so at once, so the form can show how long.
      if (delay > 0) throw throttled(reply, delay);
      throw new ApiError(401, 'login_failed', LOGIN_FAILED_MESSAGE);
    }
    await clearAccount(db, keys);
    const session = await createSession(db, user.id, body.remember);
    reply
      .setCookie(REFRESH_COOKIE, session.token, refreshCookieOptions(request, body.remember ? session.maxAgeSeconds : undefined))
      .header('cache-control', 'no-store');
    return accessTokenFor(user.id, session.id);
  });

  // The mobile app trades the QR code of the download page for a session of its own. A wrong code
  // counts against the client address like a wrong password, so codes cannot be guessed at speed
  // (they are 256 random bits anyway).
  app.post('/login/mobile', async (request, reply) => {
    const body = parseOrThrow(MobileSignInRequest, request.body, 'mobile sign-in request');
    const keys = loginKeys('', request.ip).filter((k) => k.kind === 'client');
    const wait = await blockedFor(db, keys);
    if (wait > 0) throw throttled(reply, wait);
    const userId = await redeemMobileCode(db, body.code);
    if (userId === null) {
      const delay = await recordFailure(db, keys);
      if (delay > 0) throw throttled(reply, delay);
      throw new ApiError(401, 'code_invalid', 'This sign-in code is not valid any more: show a new one on the mobile download page');
    }
    const session = await createSession(db, userId, true);
    reply.setCookie(REFRESH_COOKIE, session.token, refreshCookieOptions(request, session.maxAgeSeconds)).header('cache-control', 'no-store');
    return accessTokenFor(userId, session.id);
  });

  // The set-password page (a link an administrator issued). An unknown token counts against the
  // client address like a wrong password, so links cannot be guessed at speed (256 random bits anyway).
  const setupKeys = (request: FastifyRequest) => loginKeys('', request.ip).filter((k) => k.kind === 'client');
  async function withSetupThrottle<T>(request: FastifyRequest, reply: FastifyReply, work: () => Promise<T>): Promise<T> {
    const keys = setupKeys(request);
    const wait = await blockedFor(db, keys);
    if (wait > 0) throw throttled(reply, wait);
    try {
      return await work();
    } catch (err) {
      if (isUnknownToken(err)) {
        const delay = await recordFailure(db, keys);
        if (delay > 0) throw throttled(reply, delay);
      }
      throw err;
    }
  }

  app.post('/v1/password-setup/check', async (request, reply): Promise<PasswordSetupInfo> => {
    const { token } = parseOrThrow(PasswordSetupCheck, request.body, 'set-password link');
    reply.header('cache-control', 'no-store');
    return withSetupThrottle(request, reply, () => checkSetupToken(db, token));
  });

  app.post('/v1/password-setup', async (request, reply) => {
    const { token, password } = parseOrThrow(PasswordSetupRequest, request.body, 'new password');
    const userId = await withSetupThrottle(request, reply, () => redeemSetupToken(db, token, password));
    // Signed in as after a sign-in without "remember me": the browser's session.
    const session = await createSession(db, userId, false);
    reply.setCookie(REFRESH_COOKIE, session.token, refreshCookieOptions(request)).header('cache-control', 'no-store');
    return accessTokenFor(userId, session.id);
  });

  app.get('/v1/access-token', async (request, reply) => {
    const token = request.cookies[REFRESH_COOKIE];
    if (!token) throw new ApiError(401, 'unauthorized', 'No session: please log in');
    const session = await sessionUser(db, token);
    if (session === null) {
      reply.clearCookie(REFRESH_COOKIE, refreshCookieOptions(request));
      throw new ApiError(401, 'session_expired', 'Session expired: please log in again');
    }
    reply.header('cache-control', 'no-store');
    return accessTokenFor(session.userId, session.sessionId);
  });

  app.post('/logout', async (request, reply) => {
    const token = request.cookies[REFRESH_COOKIE];
    if (token) await revokeSession(db, token);
    reply.clearCookie(REFRESH_COOKIE, refreshCookieOptions(request)).code(204);
  });
}
