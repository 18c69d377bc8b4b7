import i18next from 'i18next';
import { Analytics, Api, Connections, Notifications, ServerPush, Session, type ServiceLookup } from '../../../kernel';
import { chatAlerts } from '../alerts';
import { chat, chatPath } from '../state';
import { uiStrings } from '../uiStrings';
import { ChatEngine } from './ChatEngine';

let engine: ChatEngine | null = null;
let starting: Promise<ChatEngine | null> | null = null;
let unlisten: (() => void) | null = null;

export function currentEngine(): ChatEngine | null {
  return engine;
}

/** Starts chat once (after the first screen has painted): strings, then the connection. */
export function startEngine(services: ServiceLookup): Promise<ChatEngine | null> {
  starting ??= (async () => {
    await uiStrings();
    const session = services.get(Session);
    const cfg = session.config.messaging;
    if (!cfg.enabled) {
      chat.status = 'disabled';
      return null;
    }
    const notify = services.get(Notifications);
    const alerts = chatAlerts(services);
    const e = new ChatEngine({
      api: services.get(Api),
      mucDomain: cfg.muc_domain,
      connections: services.get(Connections),
      notify,
      t: (key, values) => i18next.t(key, values),
      userId: session.userId,
      pingIntervalMs: cfg.ping_interval_ms,
      pingTimeoutMs: cfg.ping_timeout_ms,
      historyPageSize: cfg.history_page_size,
      storage: typeof localStorage === 'undefined' ? null : localStorage,
      sessionStorage: typeof sessionStorage === 'undefined' ? null : sessionStorage,
      announceNew: (from, body, jid) => {
        notify.announce(i18next.t('messaging:announce.newMessage', { name: from, body: body.slice(0, 140) }), 'polite');
        alerts.newMessage({ kind: 'chat', tag: `chat:${jid}`, title: from, body: body.slice(0, 140), to: chatPath(jid) });
      },
      sent: () => services.maybe(Analytics)?.track('message_sent'),
      serverPush: (subject, body) => services.maybe(ServerPush)?.publish(subject, body),
    });
    engine = e;
    const offline = () => e.offline();
    const online = () => e.online();
    const visible = () => e.setOpen(chat.open);
    addEventListener('offline', offline);
    addEventListener('online', online);
    document.addEventListener('visibilitychange', visible);
    unlisten = () => {
      removeEventListener('offline', offline);
      removeEventListener('online', online);
      document.removeEventListener('visibilitychange', visible);
    };
    e.start();
    return e;
  })();
  return starting;
}

export function stopEngine(): void {
  unlisten?.();
  unlisten = null;
  engine?.dispose();
  engine = null;
  starting = null;
}
