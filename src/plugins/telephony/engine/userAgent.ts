import type { ConnectionHandle } from '../../../kernel';
import { ApiError } from '../../../kernel';
import { SipCredentialsResponse } from '../../../wire/services';
import { phone, type PhoneStatus } from '../state';
import type { CallTable } from './calls';
import { CAUSE, type EngineDeps } from './deps';
import type { NewSessionEvent, SessionLike, UaLike } from './types';
import { log } from '../log';
import { useIceServers } from './microphone';

/** Credentials are renewed at this share of their remaining lifetime. */
const CREDENTIAL_RENEW_SHARE = 0.8;
const CREDENTIAL_RETRY_MS = 60_000;

export type UserAgentDeps = Pick<EngineDeps, 'api' | 'connections' | 'sip' | 'displayName' | 'createUa'>;

/**
 * The JsSIP user agent of the tab that holds the registration: time-limited credentials renewed on
 * the same connection, the connection banner, reconnecting, and the network coming back.
 */
export class UserAgent {
  private ua: UaLike | null = null;
  /** The user's own address (`sip:<extension>@<domain>`), from the last credentials. */
  private uri: string | null = null;
  private connection: ConnectionHandle | null = null;
  private credentialTimer: ReturnType<typeof setTimeout> | null = null;
  private onlineTimer: ReturnType<typeof setTimeout> | null = null;
  private authRetried = false;
  /** Set by the browser's `online` event: connected calls restart ICE once registered again. */
  private iceRestartPending = false;
  private disposed = false;
  /** Set while a call the call table must not track is being placed (placeUntracked). */
  private untracked: ((session: SessionLike) => void) | null = null;

  constructor(
    private readonly deps: UserAgentDeps,
    private readonly calls: Pick<CallTable, 'track' | 'hasLiveCalls' | 'sessionsIn'>,
    /** Asks for the registration again (a retry while this tab has no user agent). */
    private readonly reserve: () => void,
  ) {}

  /** The running user agent, if this tab has one. */
  current(): UaLike | null {
    return this.ua;
  }

  ownUri(): string | null {
    return this.uri;
  }

  /**
   * Places a call that is not one of the user's calls (the connection test's call to the echo
   * number): no dock, no history refresh, no presence. JsSIP announces the session synchronously
   * inside `place`, so it is caught here and returned instead of reaching the call table.
   */
  placeUntracked(place: () => void): SessionLike | null {
    let placed: SessionLike | null = null;
    this.untracked = (session) => (placed = session);
    try {
      place();
    } finally {
      this.untracked = null;
    }
    return placed;
  }

  private async fetchCredentials(): Promise<SipCredentialsResponse> {
    return this.deps.api.get('/v1/sip-credentials', undefined, SipCredentialsResponse);
  }

  async connect(): Promise<void> {
    phone.status = 'connecting';
    let creds: SipCredentialsResponse;
    try {
      creds = await this.fetchCredentials();
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        phone.status = 'unconfigured';
        return;
      }
      log.error('credentials', err);
      phone.status = 'error';
      this.reportConnection('error');
      return;
    }
    // The hold may have been lost while the credentials were on their way.
    if (this.disposed || this.ua || (phone.status as PhoneStatus) === 'elsewhere') return;
    this.uri = creds.uri;
    useIceServers(creds.ice_servers);
    const ua = this.deps.createUa({
      wsUrl: creds.ws_url,
      wsUrls: creds.ws_urls,
      uri: creds.uri,
      authorizationUser: creds.authorization_user,
      password: creds.password,
      displayName: this.deps.displayName,
      registerExpires: this.deps.sip.register_expires,
      noAnswerTimeout: this.deps.sip.no_answer_timeout,
    });
    this.ua = ua;
    this.authRetried = false;
    this.connection ??= this.deps.connections.register('telephony', 'telephony:connection', () => this.reconnect());
    const mine = (fn: () => void) => () => {
      if (this.ua === ua) fn();
    };
    ua.on('connecting', mine(() => this.reportConnection('connecting')));
    ua.on('registered', mine(() => {
      this.authRetried = false;
      phone.status = 'ready';
      this.reportConnection('connected');
      this.restartIce();
    }));
    ua.on('unregistered', mine(() => {
      phone.status = 'connecting';
    }));
    ua.on('registrationFailed', (e: { cause?: string }) => {
      if (this.ua !== ua) return;
      phone.status = 'error';
      this.reportConnection('error');
      // Credentials may have lapsed (a laptop that slept): fetch fresh ones once.
      if (e.cause === CAUSE.auth && !this.authRetried) {
        this.authRetried = true;
        void this.renewCredentials();
      }
    });
    ua.on('disconnected', mine(() => {
      phone.status = 'error';
      this.reportConnection('disconnected');
    }));
    ua.on('newRTCSession', (e: NewSessionEvent) => {
      if (this.ua !== ua) return;
      if (e.originator === 'local' && this.untracked) this.untracked(e.session);
      else this.calls.track(e);
    });
    this.scheduleCredentialRenewal(creds.expires_at);
    ua.start();
  }

  private scheduleCredentialRenewal(expiresAt: string): void {
    if (this.credentialTimer) clearTimeout(this.credentialTimer);
    const left = Date.parse(expiresAt) - Date.now();
    const ms = Number.isFinite(left) ? Math.max(30_000, left * CREDENTIAL_RENEW_SHARE) : CREDENTIAL_RETRY_MS;
    this.credentialTimer = setTimeout(() => void this.renewCredentials(), ms);
  }

  /** New credentials on the same connection: calls in progress are not touched. */
  async renewCredentials(): Promise<void> {
    const ua = this.ua;
    if (!ua) return;
    try {
      const creds = await this.fetchCredentials();
      if (this.ua !== ua) return;
      ua.set('authorization_user', creds.authorization_user);
      ua.set('password', creds.password);
      useIceServers(creds.ice_servers);
      ua.register();
      this.scheduleCredentialRenewal(creds.expires_at);
    } catch (err) {
      log.error('credential renewal failed', err);
      if (this.ua === ua) this.credentialTimer = setTimeout(() => void this.renewCredentials(), CREDENTIAL_RETRY_MS);
    }
  }

  /** The connection banner's retry, and the browser coming back online. */
  reconnect(): void {
    if (this.disposed || phone.status === 'elsewhere' || phone.status === 'unconfigured') return;
    const ua = this.ua;
    if (!ua) {
      this.reserve();
    } else if (!ua.isConnected() && !this.calls.hasLiveCalls()) {
      this.stop({ keepConnection: true });
      void this.connect();
    } else {
      ua.register();
    }
  }

  /** The browser's `online` event: the SIP agent restarts a little later (the network settles first). */
  online(): void {
    if (this.onlineTimer) clearTimeout(this.onlineTimer);
    // The network changed under any call in progress: its media path must be found again.
    this.iceRestartPending = true;
    this.onlineTimer = setTimeout(() => {
      this.onlineTimer = null;
      this.reconnect();
    }, this.deps.sip.restart_after_online_ms);
  }

  /**
   * After a network change, once SIP is registered again: an ICE restart (re-INVITE with new ICE
   * credentials) on every connected call, so its audio follows the new network instead of dying.
   */
  private restartIce(): void {
    if (!this.iceRestartPending) return;
    this.iceRestartPending = false;
    for (const [, session] of this.calls.sessionsIn('active')) {
      if (!session.renegotiate) continue;
      try {
        session.renegotiate({ rtcOfferConstraints: { iceRestart: true } });
      } catch (err) {
        log.error('ICE restart failed', err);
      }
    }
  }

  stop(opts: { keepConnection?: boolean } = {}): void {
    if (this.credentialTimer) clearTimeout(this.credentialTimer);
    this.credentialTimer = null;
    const ua = this.ua;
    this.ua = null;
    // Stopping unregisters and ends every session; their `ended`/`failed` events still arrive.
    if (ua) ua.stop();
    if (!opts.keepConnection) {
      this.connection?.dispose();
      this.connection = null;
    }
  }

  reportConnection(state: Parameters<ConnectionHandle['report']>[0]): void {
    this.connection?.report(state);
  }

  dispose(): void {
    this.disposed = true;
    if (this.onlineTimer) clearTimeout(this.onlineTimer);
    this.stop();
  }
}
