import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { HotkeyOverrides, PreferenceBody, PreferenceKeySchema, type PreferenceKey, type PreferenceResponse } from '../../src/wire/preferences';
import { ClickDialSetting } from '../../src/wire/clickDial';
import { ApiError, forbidden, notFound, parseOrThrow, zodDetails } from '../errors';
import type { RouteContext } from '../context';
import { mayCreateMeetings } from '../meetings/service';
import { preferenceOf, savePreference } from './repository';

export const MAX_PREFERENCE_BYTES = 64 * 1024;

/** Keys whose value has a shape the client relies on; the rest are free-form JSON. */
/** `false` is always allowed: a client stores false for any preference whose read answered 404. */
const VALUE_SCHEMAS: Partial<Record<PreferenceKey, z.ZodMiniType>> = {
  'uc-hotkeys': HotkeyOverrides,
  'uc-click-dial': ClickDialSetting,
};

/**
 * Keys the server decides, not the user. uc-can-create-meetings is read from the rule of who may
 * create meetings (never stored, so never stale); uc-services-account-confirmed is set by confirming
 * the company in the wizard, and a user may only take their confirmation back (false).
 */
const SERVER_OWNED: Partial<Record<PreferenceKey, { message: string; allowFalse: boolean }>> = {
  'uc-can-create-meetings': { message: 'uc-can-create-meetings follows from web meeting management and your role: it cannot be set', allowFalse: false },
  'uc-services-account-confirmed': { message: 'uc-services-account-confirmed is set by confirming the company in the onboarding wizard', allowFalse: true },
};

const KeyParam = z.object({ key: z.string() });

function parseKey(params: unknown): PreferenceKey {
  const { key } = parseOrThrow(KeyParam, params, 'preference key');
  const parsed = PreferenceKeySchema.safeParse(key);
  if (!parsed.success) throw new ApiError(400, 'unknown_preference', `Unknown preference key: ${key}`);
  return parsed.data;
}

function parseValue(key: PreferenceKey, body: unknown): unknown {
  const { value } = parseOrThrow(PreferenceBody, body, 'preference body');
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  if (bytes > MAX_PREFERENCE_BYTES) {
    throw new ApiError(400, 'value_too_large', `Preference value is ${bytes} bytes; the limit is ${MAX_PREFERENCE_BYTES} bytes of JSON`);
  }
  const schema = VALUE_SCHEMAS[key];
  if (schema && value !== false) {
    const result = schema.safeParse(value);
    if (!result.success) throw new ApiError(400, 'validation_failed', `Invalid value for ${key}`, zodDetails(result.error).map((d) => ({ ...d, path: `value.${d.path}` })));
  }
  return value;
}

export function registerPreferenceRoutes(app: FastifyInstance, { db, requireUserId, requireViewer, settings }: RouteContext): void {
  app.get('/v1/user-preferences/:key', async (request): Promise<PreferenceResponse> => {
    const userId = await requireUserId(request);
    const key = parseKey(request.params);
    if (key === 'uc-can-create-meetings') return { key, value: mayCreateMeetings(settings.webMeetingManagement !== false, (await requireViewer(request)).roleId) };
    const saved = await preferenceOf(db, userId, key);
    if (!saved) throw notFound(`Preference ${key} is not set`);
    return { key, value: saved.value };
  });

  app.put('/v1/user-preferences/:key', async (request): Promise<PreferenceResponse> => {
    const userId = await requireUserId(request);
    const key = parseKey(request.params);
    const value = parseValue(key, request.body);
    const owned = SERVER_OWNED[key];
    if (owned && !(owned.allowFalse && value === false)) throw forbidden(owned.message);
    return { key, value: await savePreference(db, userId, key, value) };
  });
}
