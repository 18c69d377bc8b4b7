import type { FastifyInstance } from 'fastify';
import { UcSettingsPatch, type UcSettings } from '../../src/wire/ucSettings';
import { IdParam } from '../../src/wire/common';
import { forbidden, parseOrThrow } from '../errors';
import type { RouteContext } from '../context';
import { applyPresenceSharingQuietly } from '../chat/presence-sharing';
import { saveUcSettings, ucSettingsOf } from './uc-settings-repository';

/** `GET/PUT /v1/users/{id}/settings/uc`: the user's own six settings (each takes effect where it acts: recording, presence, voicemail notices). */
export function registerUcSettingsRoutes(app: FastifyInstance, { db, requireUserId, services }: RouteContext): void {
  const own = async (request: { params: unknown }, me: number) => {
    const { id } = parseOrThrow(IdParam, request.params, 'user id');
    if (id !== me) throw forbidden('These are the user\'s own settings');
    return id;
  };

  app.get('/v1/users/:id/settings/uc', async (request): Promise<UcSettings> => ucSettingsOf(db, await own(request, await requireUserId(request))));

  app.put('/v1/users/:id/settings/uc', async (request): Promise<UcSettings> => {
    const id = await own(request, await requireUserId(request));
    const patch = parseOrThrow(UcSettingsPatch, request.body ?? {}, 'UC settings');
    const saved = await saveUcSettings(db, id, patch);
    // ejabberd enforces it before the answer, so a client reading the answer knows colleagues see it.
    if (patch.share_presence !== undefined) await applyPresenceSharingQuietly(db, services, request.log, id, saved.share_presence);
    return saved;
  });
}
