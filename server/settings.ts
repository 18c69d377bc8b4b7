/** Deployment settings that reach the client through `GET /v1/ucc-config`. */
export interface UccSettings {
  sipWsUrl: string;
  xmppWsUrl: string;
}

export function readUccSettings(env: NodeJS.ProcessEnv = process.env): UccSettings {
  return {
    sipWsUrl: env.UC_SIP_WS_URL || 'ws://127.0.0.1:8088/',
    xmppWsUrl: env.UC_XMPP_WS_URL || 'ws://127.0.0.1:5280/ws',
  };
}
