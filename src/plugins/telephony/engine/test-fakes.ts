/** JsSIP-like fakes for the engine's unit tests (the e2e tests use the real JsSIP, Kamailio and rtpengine). */
import { vi } from 'vitest';
import type { ConnectionHandle, ConnectionState, ToastInput } from '../../../kernel';
import type { EngineDeps } from './deps';
import type { CallOptions, NewSessionEvent, SessionLike, TabMessage, UaConfig, UaLike } from './types';

type Listener = (e: never) => void;

class Emitter {
  private readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, e: unknown = {}): void {
    for (const l of this.listeners.get(event) ?? []) l(e as never);
  }
}

/** A REFER we sent; the test settles it like the far end would (NOTIFY 200, or a failure). */
export class FakeRefer extends Emitter {
  constructor(
    readonly target: string,
    readonly replaces: SessionLike | undefined,
  ) {
    super();
  }
}

export class FakeSession extends Emitter implements SessionLike {
  ended = false;
  connection: RTCPeerConnection | null = null;
  readonly calls: string[] = [];
  readonly _request = { call_id: `call-${Math.random().toString(36).slice(2)}@test` };
  constructor(readonly remote_identity: { uri: { user: string | null }; display_name?: string | null }) {
    super();
  }
  answer = vi.fn((_o: CallOptions) => void this.calls.push('answer'));
  terminate = vi.fn((_o?: { status_code?: number; reason_phrase?: string }) => void this.calls.push('terminate'));
  hold = vi.fn(() => {
    this.calls.push('hold');
    this.emit('hold', { originator: 'local' });
    return true;
  });
  unhold = vi.fn(() => {
    this.calls.push('unhold');
    this.emit('unhold', { originator: 'local' });
    return true;
  });
  mute = vi.fn(() => this.emit('muted', { audio: true }));
  unmute = vi.fn(() => this.emit('unmuted', { audio: true }));
  sendDTMF = vi.fn();
  readonly refers: FakeRefer[] = [];
  renegotiate = vi.fn((_o: { rtcOfferConstraints?: RTCOfferOptions }) => true);
  refer = vi.fn((target: string, options?: { replaces?: SessionLike }) => {
    const r = new FakeRefer(target, options?.replaces);
    this.refers.push(r);
    return r;
  });
  isEnded = () => this.ended;
  /** The far end (or JsSIP) ends the session. */
  end(event: 'ended' | 'failed', originator: 'local' | 'remote' | 'system', cause: string): void {
    this.ended = true;
    this.emit(event, { originator, cause });
  }
}

export class FakeUa extends Emitter implements UaLike {
  connected = true;
  readonly sessions: FakeSession[] = [];
  constructor(readonly config: UaConfig) {
    super();
  }
  start = vi.fn(() => {
    this.emit('connecting');
    this.emit('registered');
  });
  stop = vi.fn(() => {
    for (const s of this.sessions) if (!s.ended) s.end('ended', 'local', 'Terminated');
  });
  register = vi.fn();
  set = vi.fn((_k: string, _v: string) => true);
  isConnected = () => this.connected;
  /** When true, outgoing calls wait for `s.emit('sending')` as JsSIP's do until their offer is made. */
  holdInvites = false;
  call = vi.fn((target: string, _o: CallOptions) => {
    const s = new FakeSession({ uri: { user: target } });
    this.sessions.push(s);
    this.emit('newRTCSession', { originator: 'local', session: s } satisfies NewSessionEvent);
    if (!this.holdInvites) s.emit('sending', {});
    return s;
  });
  /** A call arrives from `user`. */
  ring(user: string, displayName: string | null = null): FakeSession {
    const s = new FakeSession({ uri: { user }, display_name: displayName });
    this.sessions.push(s);
    this.emit('newRTCSession', { originator: 'remote', session: s } satisfies NewSessionEvent);
    return s;
  }
}

export interface Harness {
  deps: EngineDeps;
  uas: FakeUa[];
  ua(): FakeUa;
  toasts: ToastInput[];
  dismissed: string[];
  announcements: Array<[string, string | undefined]>;
  reports: ConnectionState[];
  posts: Array<{ path: string; body: unknown; keepalive?: boolean }>;
  /** What `POST /v1/regreserve` answers next (granted by default). */
  grant: { value: boolean };
  /** The organisation's recording policy the API reports, and what recording control answers. */
  recording: { mode: 'on' | 'on_demand' | 'off'; fail: boolean };
  credentialFetches: number;
  /** The TURN servers the next credentials come with (none by default, as before there was TURN). */
  iceServers: RTCIceServer[] | undefined;
  /** Every Kamailio of a cluster, as the next credentials list them (none by default: one Kamailio). */
  wsUrls: string[] | undefined;
  tones: { ring: boolean; ringback: boolean; dtmf: string[] };
  channelSent: TabMessage[];
  channelReceive(m: TabMessage): void;
}

export function harness(over: Partial<EngineDeps> = {}): Harness {
  const uas: FakeUa[] = [];
  const toasts: ToastInput[] = [];
  const dismissed: string[] = [];
  const announcements: Array<[string, string | undefined]> = [];
  const reports: ConnectionState[] = [];
  const posts: Array<{ path: string; body: unknown; keepalive?: boolean }> = [];
  const grant = { value: true };
  const tones = { ring: false, ringback: false, dtmf: [] as string[] };
  const channelSent: TabMessage[] = [];
  let channelListener: ((m: TabMessage) => void) | null = null;
  const recording: Harness['recording'] = { mode: 'on_demand', fail: false };
  const h: Harness = {
    uas,
    ua: () => uas[uas.length - 1]!,
    toasts,
    dismissed,
    announcements,
    reports,
    posts,
    grant,
    recording,
    credentialFetches: 0,
    iceServers: undefined,
    wsUrls: undefined,
    tones,
    channelSent,
    channelReceive: (m) => channelListener?.(m),
    deps: undefined as unknown as EngineDeps,
  };
  h.deps = {
    api: {
      post: (async (path: string, body: unknown) => {
        posts.push({ path, body });
        if (path.endsWith('/recording')) {
          if (recording.fail) throw new Error('recording control unavailable');
          const action = (body as { action: string }).action;
          return { state: action === 'pause' ? 'paused' : 'recording', mode: recording.mode, segments: 1 };
        }
        return { peer: grant.value ? 'web-me' : 'web-other', client: 'web', expires_at: new Date(Date.now() + 90_000).toISOString(), granted: grant.value };
      }) as never,
      request: (async (_method: string, path: string, opts: { body?: unknown; keepalive?: boolean }) => {
        posts.push({ path, body: opts.body, keepalive: opts.keepalive });
        return { peer: null, client: null, expires_at: null, granted: false };
      }) as never,
      get: (async (path: string) => {
        if (path === '/v1/call-recording-settings') return { ecr_call_recording_status: recording.mode, ecr_can_view_own_recordings: true };
        if (path === '/v1/platform-configuration') return { ecr_pause_recording_dtmf_sequence: '*82', ecr_on_demand_dtmf_sequence: '*81' };
        h.credentialFetches++;
        return {
          uri: 'sip:1001@uc.local',
          authorization_user: `${Math.floor(Date.now() / 1000) + 3600}:1001`,
          password: `secret-${h.credentialFetches}`,
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          ws_url: 'ws://127.0.0.1:15060/',
          ...(h.iceServers ? { ice_servers: h.iceServers } : {}),
          ...(h.wsUrls ? { ws_urls: h.wsUrls } : {}),
        };
      }) as never,
    },
    notify: {
      toast: (t) => {
        toasts.push(t);
        return `toast-${toasts.length}`;
      },
      dismiss: (id) => void dismissed.push(id),
      announce: (text, politeness) => void announcements.push([text, politeness]),
    },
    connections: {
      register: (): ConnectionHandle => ({ report: (s) => void reports.push(s), dispose: () => undefined }),
    },
    sip: { domain: 'uc.local', register_expires: 300, no_answer_timeout: 60, restart_after_online_ms: 10_000 },
    displayName: 'Alice Nguyen',
    peer: 'web-me',
    createUa: (config) => {
      const ua = new FakeUa(config);
      uas.push(ua);
      return ua;
    },
    audio: { attach: vi.fn(), detach: vi.fn(), setSink: vi.fn() },
    tones: {
      ring: (on) => void (tones.ring = on),
      ringback: (on) => void (tones.ringback = on),
      dtmf: (d) => void tones.dtmf.push(d),
      setRingSink: vi.fn(),
      test: vi.fn(() => Promise.resolve()),
      dispose: () => undefined,
    },
    t: (key, values) => `${key}${values ? ` ${JSON.stringify(values)}` : ''}`,
    lookupName: (n) => ({ '1002': 'Bob Martinez' })[n],
    channel: {
      post: (m) => void channelSent.push(m),
      onMessage: (l) => void (channelListener = l),
      close: () => undefined,
    },
    ...over,
  };
  return h;
}
