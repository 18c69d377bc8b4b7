import type { RequireUserId } from './auth/guard';
import type { TokenService } from './auth/tokens';
import type { RequireViewer } from './auth/viewer';
import type { Db } from './db/types';
import type { ServicesConfig } from './services/layout';
import type { UccSettings } from './settings';
import type { CarrierAdapter } from './texts/carrier';

/** What every route module gets from the app. */
export interface RouteContext {
  db: Db;
  tokens: TokenService;
  requireUserId: RequireUserId;
  /** The caller's id, organisation, role and username, loaded once per request. */
  requireViewer: RequireViewer;
  settings: UccSettings;
  /** Ports, secrets folder and domain of ejabberd, Kamailio and rtpengine. */
  services: ServicesConfig;
  /** This server drives the voicemail phone (see AppOptions.voicemail). */
  voicemail: boolean;
  /** The carrier that sends texts (the loopback carrier unless the app was given another). */
  carrier: CarrierAdapter;
  /** The data folder (secrets, the maintenance switch). */
  runtimeDir: string;
  /** The served client's build (server/frame/client-build.ts), null when none is served. */
  clientBuild: () => Promise<string | null>;
}
