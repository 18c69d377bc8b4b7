import { janusInstances } from './services/janus-instances';
import { ejabberdWsUrls } from './services/ejabberd-nodes';
import { KAMAILIO2_HOST, servicePorts } from './services/ports';

/** Deployment settings that reach the client through `GET /v1/ucc-config`. */
export interface UccSettings {
  sipWsUrl: string;
  /**
   * Every Kamailio a browser may register on (`UC_SIP_WS_URLS`, comma-separated; in a cluster,
   * UC_CLUSTER=1, both local nodes by default): JsSIP fails over between them. The first is sipWsUrl.
   */
  sipWsUrls: string[];
  xmppWsUrl: string;
  /**
   * Every ejabberd node's WebSocket address, `xmppWsUrl` first: the client moves to the next when its
   * node is gone. One entry unless UC_CLUSTER=1 (or UC_XMPP_WS_URLS, comma-separated, behind a proxy).
   */
  xmppWsUrls: string[];
  /**
   * Janus's WebSocket API, where meeting pages publish and subscribe: one per Janus instance, in
   * the order of janusInstances (two with UC_CLUSTER=1); `UC_JANUS_WS_URL`, comma-separated.
   */
  janusWsUrls: string[];
  /** coturn as the browsers reach it (`UC_TURN_HOST`, default 127.0.0.1; the port is the plan's). */
  turnUrls: string[];
  /** The TURN server is not the project's own coturn (UC_TURN_HOST is set). */
  turnExternal?: boolean;
  /** Where voicemail e-mails go out (`UC_SMTP_URL`); none: no e-mail is sent and the client is told so. */
  smtpUrl?: string | undefined;
  /** Where meeting windows open: `{meetingUrl}/uc/{alias}/{slug}` (`UC_MEETING_URL`; default: this API server). */
  meetingUrl?: string | undefined;
  /** The webMeetingManagement feature (`UC_WEB_MEETING_MANAGEMENT=off` turns it off): scheduling and editing meetings. */
  webMeetingManagement?: boolean;
  /** The mobile app's store pages (`UC_MOBILE_IOS_URL`, `UC_MOBILE_ANDROID_URL`), shown on the mobile download page; unset: not shown. */
  mobileIosUrl?: string | undefined;
  mobileAndroidUrl?: string | undefined;
}

/** The browser connects straight to Kamailio and ejabberd on the project's ports unless told otherwise. */
export function readUccSettings(env: NodeJS.ProcessEnv = process.env): UccSettings {
  const ports = servicePorts(env.UC_PORT_BASE ? Number(env.UC_PORT_BASE) : undefined);
  const xmppWsUrl = env.UC_XMPP_WS_URL || `ws://127.0.0.1:${ports.xmppHttp}/ws`;
  const listed = (env.UC_XMPP_WS_URLS ?? '').split(',').map((u) => u.trim()).filter(Boolean);
  const xmppWsUrls = listed.length ? listed : [xmppWsUrl, ...(env.UC_CLUSTER === '1' ? ejabberdWsUrls({ ports, cluster: true }).slice(1) : [])];
  const sipWsUrl = env.UC_SIP_WS_URL || `ws://127.0.0.1:${ports.sipWs}/`;
  const listedSip = (env.UC_SIP_WS_URLS || '').split(',').map((u) => u.trim()).filter(Boolean);
  const sipWsUrls = listedSip.length ? listedSip : env.UC_CLUSTER === '1' ? [sipWsUrl, `ws://${KAMAILIO2_HOST}:${ports.sipWs2}/`] : [sipWsUrl];
  return {
    sipWsUrl: sipWsUrls[0]!,
    sipWsUrls,
    xmppWsUrl: xmppWsUrls[0]!,
    xmppWsUrls,
    janusWsUrls: janusBrowserUrls(env, ports),
    turnUrls: ['udp', 'tcp'].map((t) => `turn:${env.UC_TURN_HOST || '127.0.0.1'}:${ports.turn}?transport=${t}`),
    turnExternal: Boolean(env.UC_TURN_HOST),
    smtpUrl: env.UC_SMTP_URL || undefined,
    meetingUrl: env.UC_MEETING_URL || undefined,
    webMeetingManagement: env.UC_WEB_MEETING_MANAGEMENT !== 'off',
    mobileIosUrl: storeUrl(env.UC_MOBILE_IOS_URL),
    mobileAndroidUrl: storeUrl(env.UC_MOBILE_ANDROID_URL),
  };
}

/** What the browser opens for each Janus instance: the deployment's address, else the instance's loopback port. */
function janusBrowserUrls(env: NodeJS.ProcessEnv, ports: ReturnType<typeof servicePorts>): string[] {
  const given = (env.UC_JANUS_WS_URL ?? '').split(',').map((u) => u.trim());
  return janusInstances({ ports, cluster: env.UC_CLUSTER === '1' }).map((instance, i) => given[i] || `ws://127.0.0.1:${instance.ws}`);
}

/** Only https links reach the page: a deployment's typo must not become a javascript: link. */
function storeUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}
