import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { JWT_GUEST_PREFIX, JWT_USER_PREFIX } from '../../src/wire/auth';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const GUEST_TOKEN_TTL_SECONDS = 4 * 60 * 60;
const ISSUER = 'uc-api';
const USER_AUDIENCE = 'uc-api';
const ALGORITHMS = ['HS256'];
const CLOCK_TOLERANCE_SECONDS = 5;

export type TokenFailure = 'malformed' | 'invalid' | 'expired' | 'bad_subject' | 'bad_audience';

export class TokenError extends Error {
  constructor(
    readonly reason: TokenFailure,
    message: string,
  ) {
    super(message);
    this.name = 'TokenError';
  }
}

/** A token's first check, before any cryptography: exactly three non-empty dot-separated parts. */
export function assertThreeParts(token: string): void {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) {
    throw new TokenError('malformed', 'Token must have three dot-separated parts');
  }
}

/** Subject rule: the expected prefix followed by a non-empty id. Returns the id. */
export function subjectId(sub: unknown, prefix: string): string {
  if (typeof sub !== 'string' || !sub.startsWith(prefix)) {
    throw new TokenError('bad_subject', `Token subject must start with "${prefix}"`);
  }
  const id = sub.slice(prefix.length).trim();
  if (!id) throw new TokenError('bad_subject', 'Token subject has an empty id');
  return id;
}

/**
 * Guest rule: the audience ends with the meeting id. The id must also start at a boundary, so a
 * token for meeting 123 is not accepted for meeting 23.
 */
export function audienceEndsWithMeeting(aud: JWTPayload['aud'], meetingId: string): boolean {
  if (!meetingId) return false;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  return audiences.some((a) => {
    if (!a.endsWith(meetingId)) return false;
    const before = a.length - meetingId.length - 1;
    return before < 0 || /[^A-Za-z0-9]/.test(a[before]!);
  });
}

async function verifySigned(token: string, key: Uint8Array, audience?: string): Promise<JWTPayload> {
  assertThreeParts(token);
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ALGORITHMS,
      issuer: ISSUER,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      ...(audience ? { audience } : {}),
    });
    return payload;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new TokenError('expired', 'Token has expired');
    if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'aud') throw new TokenError('bad_audience', 'Token audience is not accepted');
    throw new TokenError('invalid', 'Token is not valid');
  }
}

/**
 * `sid` names the refresh session the token was issued under: the guard checks that session is
 * still live, so logging out ends its access tokens at once rather than when they expire.
 */
export async function signAccessToken(userId: number, key: Uint8Array, sessionId?: string): Promise<string> {
  return new SignJWT(sessionId ? { sid: sessionId } : {})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(`${JWT_USER_PREFIX}${userId}`)
    .setIssuer(ISSUER)
    .setAudience(USER_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .setJti(randomUUID())
    .sign(key);
}

/** A user's bearer token → the user id (and its session, when it names one). Throws TokenError. */
export async function verifyAccessToken(token: string, key: Uint8Array): Promise<{ userId: number; sessionId?: string }> {
  const payload = await verifySigned(token, key, USER_AUDIENCE);
  const id = subjectId(payload.sub, JWT_USER_PREFIX);
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2 ** 31 - 1) throw new TokenError('bad_subject', 'Token subject has an invalid user id');
  if (payload.sid === undefined) return { userId: Number(id) };
  if (typeof payload.sid !== 'string' || !/^[1-9]\d{0,17}$/.test(payload.sid)) throw new TokenError('invalid', 'Token session is not valid');
  return { userId: Number(id), sessionId: payload.sid };
}

/** `sub` names the guest (server/meetings/guest-repository.ts), `aud` the meeting, so the token opens that meeting only. */
export async function signGuestToken(guestId: string, meetingId: string, key: Uint8Array): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(`${JWT_GUEST_PREFIX}${guestId}`)
    .setIssuer(ISSUER)
    .setAudience(`uc-meeting/${meetingId}`)
    .setIssuedAt()
    .setExpirationTime(`${GUEST_TOKEN_TTL_SECONDS}s`)
    .setJti(randomUUID())
    .sign(key);
}

/** A guest's meeting token → the guest's id, only for the meeting its audience names. Throws TokenError. */
export async function verifyGuestToken(token: string, meetingId: string, key: Uint8Array): Promise<{ guestId: string }> {
  const payload = await verifySigned(token, key);
  const guestId = subjectId(payload.sub, JWT_GUEST_PREFIX);
  if (!audienceEndsWithMeeting(payload.aud, meetingId)) throw new TokenError('bad_audience', 'Token is not for this meeting');
  return { guestId };
}

/** The token functions bound to one key, as the app uses them. */
export function createTokenService(key: Uint8Array) {
  return {
    signAccessToken: (userId: number, sessionId: string) => signAccessToken(userId, key, sessionId),
    verifyAccessToken: (token: string) => verifyAccessToken(token, key),
    signGuestToken: (guestId: string, meetingId: string) => signGuestToken(guestId, meetingId, key),
    verifyGuestToken: (token: string, meetingId: string) => verifyGuestToken(token, meetingId, key),
  };
}
export type TokenService = ReturnType<typeof createTokenService>;
