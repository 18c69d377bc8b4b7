import type { FastifyInstance } from 'fastify';
import { UC_SETTINGS_DEFAULTS, UcSettingsPatch, type UcSettings } from '../../src/wire/ucSettings';
import { IdParam } from '../../src/wire/common';
import { forbidden, parseOrThrow } from '../errors';
import type { RouteContext } from '../routes/context';
import type { Queryable } from '../db/types';

/** The user's settings: what they saved over the defaults (a setting added later reads its default). */
export async function ucSettingsOf(db: Queryable, userId: number): Promise<UcSettings> {
  const { rows } = await db.query<{ settings: Partial<UcSettings> }>('SELECT settings FROM user_uc_settings WHERE user_id = $1', [userId]);
  return { ...UC_SETTINGS_DEFAULTS, ...rows[0]?.settings };
}

/** `GET/PUT /v1/users/{id}/settings/uc`: the user's own six settings (other helpers make each take effect). */
export function registerUcSettingsRoutes(app: FastifyInstance, { db, requireUserId }: RouteContext): void {
  const own = async (request: { params: unknown }, me: number) => {
    const { id } = parseOrThrow(IdParam, request.params, 'user id');
    if (id !== me) throw forbidden('These are the user\'s own settings');
    return id;
  };

  app.get('/v1/users/:id/settings/uc', async (request): Promise<UcSettings> => ucSettingsOf(db, await own(request, await requireUserId(request))));

  app.put('/v1/users/:id/settings/uc', async (request): Promise<UcSettings> => {
    const id = await own(request, await requireUserId(request));
    const patch = parseOrThrow(UcSettingsPatch, request.body ?? {}, 'UC settings');
    return db.transaction(async (tx) => {
      // Locked read-merge-write, so two tabs changing different settings both keep theirs.
      await tx.query('INSERT INTO user_uc_settings (user_id, settings) VALUES ($1, $2::text::jsonb) ON CONFLICT (user_id) DO NOTHING', [id, '{}']);
      await tx.query('SELECT 1 FROM user_uc_settings WHERE user_id = $1 FOR UPDATE', [id]);
      const next = { ...(await ucSettingsOf(tx, id)), ...patch };
      await tx.query('UPDATE user_uc_settings SET settings = $2::text::jsonb, updated_at = now() WHERE user_id = $1', [id, JSON.stringify(next)]);
      return next;
    });
  });
}
