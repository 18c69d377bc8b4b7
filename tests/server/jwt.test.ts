import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  audienceEndsWithMeeting,
  signAccessToken,
  signGuestToken,
  TokenError,
  verifyAccessToken,
  verifyGuestToken,
} from '../../server/auth/tokens';

const key = new Uint8Array(randomBytes(64));
const otherKey = new Uint8Array(randomBytes(64));

/** A token with chosen claims, signed like the server's own, to test one rule at a time. */
function craft(claims: { sub?: string; aud?: string | string[]; exp?: number; iss?: string }, signingKey = key) {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setIssuer(claims.iss ?? 'uc-api');
  if (claims.sub !== undefined) jwt.setSubject(claims.sub);
  if (claims.aud !== undefined) jwt.setAudience(claims.aud);
  jwt.setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600);
  return jwt.sign(signingKey);
}

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'accepted';
  } catch (err) {
    if (err instanceof TokenError) return err.reason;
    throw err;
  }
}

describe('user access tokens', () => {
  it('round-trip: sub is user:<id>, 15-minute expiry', async () => {
    const token = await signAccessToken(42, key);
    const [, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims.sub).toBe('user:42');
    expect(claims.exp - claims.iat).toBe(ACCESS_TOKEN_TTL_SECONDS);
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe(900);
    expect(await verifyAccessToken(token, key)).toEqual({ userId: 42 });
  });

  it('requires exactly three non-empty dot-separated parts', async () => {
    const token = await signAccessToken(1, key);
    const [h, p, s] = token.split('.');
    expect(await reason(verifyAccessToken(`${h}.${p}`, key))).toBe('malformed');
    expect(await reason(verifyAccessToken(`${token}.extra`, key))).toBe('malformed');
    expect(await reason(verifyAccessToken(`${h}..${s}`, key))).toBe('malformed');
    expect(await reason(verifyAccessToken('', key))).toBe('malformed');
  });

  it('rejects an unsigned (alg none) token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: 'user:1', iss: 'uc-api', aud: 'uc-api', exp: 9e9 })).toString('base64url');
    expect(await reason(verifyAccessToken(`${header}.${payload}.`, key))).toBe('malformed');
    expect(await reason(verifyAccessToken(`${header}.${payload}.x`, key))).toBe('invalid');
  });

  it('rejects a wrong key, a tampered payload and an expired token', async () => {
    const token = await signAccessToken(1, otherKey);
    expect(await reason(verifyAccessToken(token, key))).toBe('invalid');
    const [h, , s] = (await signAccessToken(1, key)).split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'user:2', iss: 'uc-api', aud: 'uc-api', exp: 9e9 })).toString('base64url');
    expect(await reason(verifyAccessToken(`${h}.${forged}.${s}`, key))).toBe('invalid');
    const expired = await craft({ sub: 'user:1', aud: 'uc-api', exp: Math.floor(Date.now() / 1000) - 60 });
    expect(await reason(verifyAccessToken(expired, key))).toBe('expired');
  });

  it('requires the user prefix and a non-empty numeric user id', async () => {
    const withSub = (sub?: string) => craft({ sub, aud: 'uc-api' });
    expect(await reason(verifyAccessToken(await withSub('7'), key))).toBe('bad_subject');
    expect(await reason(verifyAccessToken(await withSub('user:'), key))).toBe('bad_subject');
    expect(await reason(verifyAccessToken(await withSub('user:  '), key))).toBe('bad_subject');
    expect(await reason(verifyAccessToken(await withSub('guest:a@b.example'), key))).toBe('bad_subject');
    expect(await reason(verifyAccessToken(await withSub('user:abc'), key))).toBe('bad_subject');
    expect(await reason(verifyAccessToken(await withSub(undefined), key))).toBe('bad_subject');
    expect(await verifyAccessToken(await withSub('user:7'), key)).toEqual({ userId: 7 });
  });

  it('rejects a token minted for another audience or issuer', async () => {
    expect(await reason(verifyAccessToken(await craft({ sub: 'user:1', aud: 'uc-meeting/1' }), key))).toBe('bad_audience');
    expect(await reason(verifyAccessToken(await craft({ sub: 'user:1', aud: 'uc-api', iss: 'elsewhere' }), key))).toBe('invalid');
  });
});

describe('verifyGuestToken', () => {
  it('accepts a guest token for its own meeting', async () => {
    const token = await signGuestToken('guest@example.com', 'm-123', key);
    expect(await verifyGuestToken(token, 'm-123', key)).toEqual({ guestId: 'guest@example.com' });
  });

  it("requires the audience to end with the meeting id", async () => {
    const token = await signGuestToken('guest@example.com', 'm-123', key);
    expect(await reason(verifyGuestToken(token, 'm-124', key))).toBe('bad_audience');
    expect(await reason(verifyGuestToken(token, '', key))).toBe('bad_audience');
    // "123" is the end of the audience but not a whole id there: a token for meeting 123 is not one for 23.
    const t123 = await signGuestToken('g@example.com', '123', key);
    expect(await reason(verifyGuestToken(t123, '23', key))).toBe('bad_audience');
    const arrayAud = await craft({ sub: 'guest:g@example.com', aud: ['uc-api', 'https://meet.example/rooms/777'] });
    expect(await verifyGuestToken(arrayAud, '777', key)).toEqual({ guestId: 'g@example.com' });
    const noAud = await craft({ sub: 'guest:g@example.com' });
    expect(await reason(verifyGuestToken(noAud, '777', key))).toBe('bad_audience');
  });

  it('requires the guest prefix and a non-empty guest id', async () => {
    expect(await reason(verifyGuestToken(await signAccessToken(5, key), 'uc-api', key))).toBe('bad_subject');
    expect(await reason(verifyGuestToken(await craft({ sub: 'guest:', aud: 'uc-meeting/9' }), '9', key))).toBe('bad_subject');
    expect(await reason(verifyGuestToken(await craft({ sub: 'g@example.com', aud: 'uc-meeting/9' }), '9', key))).toBe('bad_subject');
  });

  it('applies the three-part and signature rules too', async () => {
    const token = await signGuestToken('g@example.com', '9', key);
    expect(await reason(verifyGuestToken(token.split('.').slice(0, 2).join('.'), '9', key))).toBe('malformed');
    expect(await reason(verifyGuestToken(await signGuestToken('g@example.com', '9', otherKey), '9', key))).toBe('invalid');
  });

  it('audienceEndsWithMeeting handles boundaries', () => {
    expect(audienceEndsWithMeeting('9', '9')).toBe(true);
    expect(audienceEndsWithMeeting('meeting:9', '9')).toBe(true);
    expect(audienceEndsWithMeeting('meeting/19', '9')).toBe(false);
    expect(audienceEndsWithMeeting(undefined, '9')).toBe(false);
  });
});
