import type { FastifyInstance } from 'fastify';
import { MOBILE_CODE_TTL_SECONDS, type MobileApps, type MobileAuthResponse } from '../../src/wire/mobile';
import type { RouteContext } from '../context';
import { issueMobileCode } from './repository';

/** The mobile download page: the store links and the single-use code its QR code carries. */
export function registerMobileRoutes(app: FastifyInstance, { db, requireUserId, settings }: RouteContext): void {
  app.get('/v1/mobile-auth', async (request): Promise<MobileAuthResponse> => {
    const userId = await requireUserId(request);
    return { access_token: await issueMobileCode(db, userId, MOBILE_CODE_TTL_SECONDS), expires_in: MOBILE_CODE_TTL_SECONDS };
  });

  app.get('/v1/mobile-apps', async (request): Promise<MobileApps> => {
    await requireUserId(request);
    return { ...(settings.mobileIosUrl ? { ios: settings.mobileIosUrl } : {}), ...(settings.mobileAndroidUrl ? { android: settings.mobileAndroidUrl } : {}) };
  });
}
