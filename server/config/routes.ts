import type { FastifyInstance } from 'fastify';
import type { FeatureFlags, UccConfig } from '../../src/wire/config';
import { logoUrl } from '../../src/wire/branding';
import { ROLE } from '../../src/wire/profile';
import { unauthorized } from '../errors';
import { mucHost } from '../services/layout';
import type { RouteContext } from '../context';
import { contactCenterLinks } from '../frame/repository';
import { configAccount } from './repository';

const HELP_URL = {
  reseller: 'https://help.acme-uc.example/partners',
  customer: 'https://help.acme-uc.example/users',
} as const;

function featuresFor(roleId: number, voicemailGeneration: number, webMeetingManagement: boolean): FeatureFlags {
  return {
    attendedTransfer: true,
    attendedTransferWithCallRecording: true,
    threeWayCalling: true,
    threeWayCallingFirefox: false,
    speedDial: true,
    mucSub: true,
    webMeetingManagement,
    adhocEnabled: true,
    // Logo upload is an administrative act.
    logoAdmin: roleId === ROLE.ACCOUNT_OWNER || roleId === ROLE.ADMINISTRATOR,
    integratedPresence: true,
    p1Enabled: true,
    p1Displayed: true,
    // The account's voicemail generation (users.voicemail_generation): v2 unless the mailbox is on v1.
    voicemail2: voicemailGeneration !== 1,
    ucDisabled: false,
    sso: false,
  };
}

export function registerConfigRoutes(app: FastifyInstance, { db, requireUserId, settings, services, clientBuild }: RouteContext): void {
  app.get('/v1/ucc-config', async (request): Promise<UccConfig> => {
    const userId = await requireUserId(request);
    const user = await configAccount(db, userId);
    if (!user) throw unauthorized('User no longer exists');
    return {
      client_id: 'uccweb.v7',
      branding: { product_name: 'Acme UC', logo_url: user.logo_digest ? logoUrl(user.logo_digest) : null, accent_color: '#2563eb' },
      features: featuresFor(user.role_id, user.voicemail_generation, settings.webMeetingManagement !== false),
      sip: {
        configured: user.extension !== null,
        ws_url: settings.sipWsUrl,
        ...(settings.sipWsUrls.length > 1 ? { ws_urls: settings.sipWsUrls } : {}),
        domain: services.domain,
        register_expires: 300,
        no_answer_timeout: 60,
        stun_port: 3478,
        restart_after_online_ms: 10_000,
      },
      messaging: {
        enabled: user.role_id !== ROLE.LIMITED_ACCESS,
        ws_url: settings.xmppWsUrl,
        domain: services.domain,
        muc_domain: mucHost(services),
        ping_interval_ms: 30_000,
        ping_timeout_ms: 25_000,
        history_page_size: 25,
      },
      mailbox_number: user.extension,
      email_configured: Boolean(settings.smtpUrl),
      help_url: HELP_URL[user.level],
      contact_center: await contactCenterLinks(db, userId),
      client_build: await clientBuild(),
    };
  });
}
