import { proxy, ref } from 'valtio';
import type { MeetingMedia } from '../../../wire/meetings';
import { log } from '../log';
import { answer, attachVideoroom, connect, loadJanus, offer, replaceTracks, sendData, type Handle, type JanusSession } from './janus';
import { displayFor, readDisplay, readSignal, writeSignal, CHAT_MAX, type FeedKind, type MediaState } from './signals';

/** Janus videoroom error codes (janus_videoroom.c) a participant can meet. */
const ROOM_FULL = 432;
const NO_SUCH_ROOM = 426;
const STATE_REPEAT_MS = 2000;

export interface Peer {
  feed: number;
  name: string;
  userId: number | null;
  kind: FeedKind;
  talking: boolean;
  /** When they last started speaking (0: not yet): the active speaker is the latest. */
  spokeAt: number;
  muted: boolean;
  /** Muted by the host for everyone: Janus drops their audio until the host allows it again. */
  forced: boolean;
  camera: boolean;
  hand: boolean;
  /** Their microphone's stream id in the room (what the host's mute names). */
  audioMid: string | null;
  /** Their audio and video as they arrive (a `ref`: never proxied). */
  stream: MediaStream;
  /** Bumped when a track comes or goes, so a tile re-binds its stream. */
  tracks: number;
}

export interface ChatLine {
  id: string;
  from: string;
  text: string;
  at: number;
  mine: boolean;
}

export type EndReason = 'left' | 'removed' | 'denied' | 'destroyed' | 'lost' | 'full' | 'gone' | 'failed' | 'devices';

export const initialRoomState = () => ({
  phase: 'connecting' as 'connecting' | 'in' | 'ended',
  ended: null as EndReason | null,
  self: { feed: null as number | null, muted: false, forced: false, camera: false, hand: false, sharing: false, talking: false },
  /** The booker or a moderator: the participants panel offers mute and remove, the controls "End for all". */
  isHost: false,
  /** The user's own camera (a `ref`), shown in their tile. */
  local: null as MediaStream | null,
  localTracks: 0,
  /** Everyone else's feeds by id (a person's camera, and a screen while they share it). */
  peers: {} as Record<number, Peer>,
  chat: [] as ChatLine[],
  /** The side panel open beside the tiles. */
  panel: null as 'participants' | 'chat' | 'devices' | null,
  /** The devices chosen in this meeting (null: the browser's default). */
  devices: { microphone: null as string | null, camera: null as string | null, speaker: null as string | null },
});
export type RoomState = ReturnType<typeof initialRoomState>;

export interface SessionEvents {
  /** A screen-reader announcement ("Bob joined"). */
  announce(kind: 'joined' | 'left' | 'hand' | 'chat' | 'mutedByHost' | 'allowedByHost' | 'waiting', name: string, text?: string): void;
}

export interface StartControls {
  video: boolean;
  muted: boolean;
}

export interface Who {
  name: string;
  userId: number;
}

const iceServersOf = (m: MeetingMedia): RTCIceServer[] => (m.turn.urls.length ? [{ urls: m.turn.urls, username: m.turn.username, credential: m.turn.credential }] : []);
const lineId = () => Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * One participant's presence in a meeting's videoroom: a publisher handle for their microphone,
 * camera and data channel, a second one while they share their screen, and a subscriber handle
 * per other feed. Janus relays everything (the SFU); its `talking` events give the speaker.
 */
export class MeetingSession {
  readonly state = proxy(initialRoomState());
  private janus: JanusSession | null = null;
  private pub: Handle | null = null;
  private screen: Handle | null = null;
  private privateId: number | null = null;
  private readonly subs = new Map<number, Handle>();
  private videoMid: string | null = null;
  private audioMid: string | null = null;
  /** Whether the camera was on when the share began (it comes back after). */
  private cameraBeforeShare = false;
  private closed = false;
  private stateTimer: ReturnType<typeof setInterval> | undefined;
  /** What the browser gave to share (the screen, and its sound when offered). */
  private screenTracks: MediaStreamTrack[] = [];

  constructor(
    private readonly media: MeetingMedia,
    private readonly who: Who,
    /** How the microphone and camera start: the user's setting, or as they were before a reconnection. */
    private readonly start0: StartControls,
    private readonly events: SessionEvents,
  ) {
    this.state.isHost = media.is_host;
  }

  async start(): Promise<void> {
    try {
      const Janus = await loadJanus();
      this.janus = await connect(Janus, this.media.janus_url, iceServersOf(this.media), (why) => {
        log.warn('meeting media server lost', why);
        this.end('lost');
      });
      this.pub = await attachVideoroom(this.janus, {
        onmessage: (msg, jsep) => this.onPublisherMessage(msg, jsep),
        onlocaltrack: (track, on) => this.onLocalTrack(track, on),
        ondataopen: () => void this.sendState(),
      });
      this.pub.send({ message: { request: 'join', room: this.media.room, ptype: 'publisher', display: displayFor({ ...this.who, kind: 'camera' }), pin: this.media.pin } });
    } catch (err) {
      log.warn('meeting media not joined', err);
      this.end('failed');
    }
  }

  private onPublisherMessage(msg: Record<string, unknown>, jsep?: { type?: string; sdp?: string }): void {
    const event = msg.videoroom;
    if (typeof msg.error_code === 'number') {
      log.warn('videoroom refused', msg.error_code, msg.error);
      if (this.state.phase === 'connecting') this.end(msg.error_code === ROOM_FULL ? 'full' : msg.error_code === NO_SUCH_ROOM ? 'gone' : 'failed');
      return;
    }
    if (event === 'joined') {
      this.state.self.feed = typeof msg.id === 'number' ? msg.id : null;
      this.privateId = typeof msg.private_id === 'number' ? msg.private_id : null;
      void this.publish();
      this.subscribeAll(msg.publishers, false);
    } else if (event === 'event') {
      this.subscribeAll(msg.publishers, true);
      for (const key of ['leaving', 'unpublished', 'kicked'] as const) {
        const feed = msg[key];
        if (typeof feed === 'number') this.dropPeer(feed, true);
      }
      if (typeof msg.moderation === 'string' && typeof msg.id === 'number') this.onModeration(msg.id, msg.mid, msg.moderation === 'muted');
      // Removed by the host (Janus says "leaving: ok" with the reason to the one removed).
      if (msg.leaving === 'ok' && msg.reason === 'kicked') this.end('removed');
    } else if (event === 'talking' || event === 'stopped-talking') {
      const talking = event === 'talking';
      if (msg.id === this.state.self.feed) this.state.self.talking = talking;
      if (typeof msg.id === 'number') this.setTalking(msg.id, talking);
    } else if (event === 'destroyed') {
      this.end('destroyed');
    }
    if (jsep && this.pub) this.pub.handleRemoteJsep({ jsep });
  }

  /**
   * Whether a feed's person speaks: Janus's videoroom says so for browsers; a phone's feed has no
   * level Janus reads, so the page sets it from the API's list of phones (usePhones).
   */
  setTalking(feed: number, talking: boolean): void {
    const peer = this.state.peers[feed];
    if (!peer || peer.talking === talking) return;
    peer.talking = talking;
    if (talking) peer.spokeAt = Date.now();
  }

  private async publish(): Promise<void> {
    const pub = this.pub;
    if (!pub) return;
    try {
      // Always a video line, so the camera can come and go without renegotiating; started off,
      // it carries a blank frame's track until the user turns the camera on.
      const video: MediaStreamTrack | true = this.start0.video ? true : blankVideoTrack();
      const jsep = await offer(pub, [
        { type: 'audio', capture: true, recv: false },
        { type: 'video', capture: video, recv: false },
        { type: 'data', capture: false },
      ]);
      pub.send({ message: { request: 'publish', display: displayFor({ ...this.who, kind: 'camera' }) }, jsep });
      this.videoMid = pub.getLocalTracks().find((t) => t.type === 'video')?.mid ?? null;
      this.audioMid = pub.getLocalTracks().find((t) => t.type === 'audio')?.mid ?? null;
      this.state.self.camera = this.start0.video;
      if (!this.start0.video && this.videoMid) await replaceTracks(pub, [{ type: 'video', mid: this.videoMid, remove: true, capture: false }]);
      if (this.start0.muted) {
        pub.muteAudio();
        this.state.self.muted = true;
      }
      // Said again every few seconds: a newcomer's subscription opens at a moment we are not told
      // of, and a state message is a few bytes.
      this.stateTimer = setInterval(() => void this.sendState(), STATE_REPEAT_MS);
      void this.sendState();
      this.state.phase = 'in';
    } catch (err) {
      log.warn('microphone or camera not available', err);
      this.end('devices');
    }
  }

  private onLocalTrack(track: MediaStreamTrack, on: boolean): void {
    if (track.kind !== 'video' && track.kind !== 'audio') return;
    const local = this.state.local ?? new MediaStream();
    if (on) local.addTrack(track);
    else local.removeTrack(track);
    this.state.local = ref(local);
    this.state.localTracks++;
  }

  private subscribeAll(publishers: unknown, announce: boolean): void {
    if (!Array.isArray(publishers)) return;
    for (const p of publishers as { id?: unknown; display?: unknown; streams?: unknown }[]) {
      if (typeof p.id !== 'number' || p.id === this.state.self.feed) continue;
      const audio = Array.isArray(p.streams) ? (p.streams as { type?: unknown; mid?: unknown }[]).find((st) => st.type === 'audio') : undefined;
      const audioMid = typeof audio?.mid === 'string' ? audio.mid : null;
      const known = this.state.peers[p.id];
      if (known && audioMid) known.audioMid = audioMid;
      if (!this.subs.has(p.id) && !known) void this.subscribe(p.id, p.display, announce, audioMid);
    }
  }

  private async subscribe(feed: number, display: unknown, announce: boolean, audioMid: string | null): Promise<void> {
    if (!this.janus || this.closed) return;
    const who = readDisplay(display);
    // One's own screen share comes back as a feed: it is shown from the local track instead.
    if (who.kind === 'screen' && who.userId === this.who.userId && this.screen) return;
    this.state.peers[feed] = { feed, ...who, talking: false, spokeAt: 0, muted: false, forced: false, camera: who.kind !== 'phone', hand: false, audioMid, stream: ref(new MediaStream()), tracks: 0 };
    if (announce && who.kind === 'camera') this.events.announce('joined', who.name);
    let handle: Handle | null = null;
    try {
      handle = await attachVideoroom(this.janus, {
        onmessage: (msg, jsep) => {
          if (typeof msg.error_code === 'number') log.warn('feed not subscribed', feed, msg.error);
          if (jsep && handle) {
            const h = handle;
            answer(h, jsep, [{ type: 'data', capture: false }]).then(
              (ours) => h.send({ message: { request: 'start', room: this.media.room }, jsep: ours }),
              (err: unknown) => log.warn('feed not answered', feed, err),
            );
          }
        },
        onremotetrack: (track, _mid, on) => {
          const peer = this.state.peers[feed];
          if (!peer) return;
          if (on) {
            for (const old of peer.stream.getTracks()) if (old.kind === track.kind && old !== track) peer.stream.removeTrack(old);
            if (!peer.stream.getTracks().includes(track)) peer.stream.addTrack(track);
          } else peer.stream.removeTrack(track);
          peer.tracks++;
        },
        ondata: (data: unknown) => this.onSignal(feed, data),
      });
      if (this.closed) return void handle.detach();
      this.subs.set(feed, handle);
      handle.send({ message: { request: 'join', room: this.media.room, ptype: 'subscriber', streams: [{ feed }], private_id: this.privateId, pin: this.media.pin } });
    } catch (err) {
      log.warn('feed not attached', feed, err);
      handle?.detach();
    }
  }

  /** The host muted or allowed someone's stream: for oneself the microphone follows and stays so. */
  private onModeration(feed: number, mid: unknown, muted: boolean): void {
    if (feed === this.state.self.feed) {
      if (mid !== this.audioMid) return;
      this.state.self.forced = muted;
      this.events.announce(muted ? 'mutedByHost' : 'allowedByHost', '');
      if (muted) this.setMuted(true);
      return;
    }
    const peer = this.state.peers[feed];
    if (!peer || mid !== peer.audioMid) return;
    peer.forced = muted;
    if (muted) peer.muted = true;
  }

  private onSignal(feed: number, data: unknown): void {
    const peer = this.state.peers[feed];
    const s = readSignal(data);
    if (!peer || !s) return;
    if (s.t === 'state') {
      if (s.hand && !peer.hand) this.events.announce('hand', peer.name);
      peer.muted = s.muted || peer.forced;
      peer.camera = s.camera;
      peer.hand = s.hand;
    } else if (!this.state.chat.some((l) => l.id === s.id)) {
      this.state.chat.push({ id: s.id, from: peer.name, text: s.text, at: Date.now(), mine: false });
      this.events.announce('chat', peer.name, s.text);
    }
  }

  private dropPeer(feed: number, announce: boolean): void {
    const peer = this.state.peers[feed];
    const handle = this.subs.get(feed);
    this.subs.delete(feed);
    handle?.detach();
    if (!peer) return;
    delete this.state.peers[feed];
    if (announce && peer.kind === 'camera') this.events.announce('left', peer.name);
  }

  private async sendState(): Promise<void> {
    const { muted, camera, hand } = this.state.self;
    const s: MediaState = { muted, camera, hand };
    if (this.pub && !this.closed) await sendData(this.pub, writeSignal({ t: 'state', ...s })).catch((err: unknown) => log.debug('state not sent', err));
  }

  setMuted(muted: boolean): void {
    // Muted by the host: Janus drops the audio anyway, so unmuting would only mislead.
    if (!this.pub || (!muted && this.state.self.forced)) return;
    if (muted) this.pub.muteAudio();
    else this.pub.unmuteAudio();
    this.state.self.muted = muted;
    void this.sendState();
  }

  async setCamera(on: boolean): Promise<void> {
    if (!this.pub || !this.videoMid || on === this.state.self.camera) return;
    // While sharing, the camera is off; turning it on stops the share.
    if (on && this.state.self.sharing) await this.stopShare(false);
    await replaceTracks(this.pub, on ? [{ type: 'video', mid: this.videoMid, replace: true, capture: this.cameraCapture() }] : [{ type: 'video', mid: this.videoMid, remove: true, capture: false }]);
    this.state.self.camera = on;
    await this.sendState();
  }

  private cameraCapture(): true | MediaTrackConstraints {
    const id = this.state.devices.camera;
    return id ? { deviceId: { exact: id } } : true;
  }

  /** Another microphone, switched without leaving: muted stays muted. */
  async setMicrophone(deviceId: string | null): Promise<void> {
    if (!this.pub || !this.audioMid) return;
    await replaceTracks(this.pub, [{ type: 'audio', mid: this.audioMid, replace: true, capture: deviceId ? { deviceId: { exact: deviceId } } : true }]);
    this.state.devices.microphone = deviceId;
    if (this.state.self.muted) this.pub.muteAudio();
  }

  /** Another camera: taken at once when the camera is on, else the next time it is. */
  async setCameraDevice(deviceId: string | null): Promise<void> {
    this.state.devices.camera = deviceId;
    if (this.pub && this.videoMid && this.state.self.camera) await replaceTracks(this.pub, [{ type: 'video', mid: this.videoMid, replace: true, capture: this.cameraCapture() }]);
  }

  /** Where everyone's audio plays (the tiles route their media there). */
  setSpeaker(deviceId: string | null): void {
    this.state.devices.speaker = deviceId;
  }

  setHand(up: boolean): void {
    this.state.self.hand = up;
    void this.sendState();
  }

  async sendChat(text: string): Promise<boolean> {
    const body = text.trim();
    if (!body || body.length > CHAT_MAX || !this.pub) return false;
    const id = lineId();
    try {
      await sendData(this.pub, writeSignal({ t: 'chat', id, text: body }));
    } catch (err) {
      log.warn('chat line not sent', err);
      return false;
    }
    this.state.chat.push({ id, from: this.who.name, text: body, at: Date.now(), mine: true });
    return true;
  }

  /** Shares the screen as a feed of its own; the camera goes off meanwhile and comes back after. */
  async startShare(): Promise<void> {
    if (!this.janus || this.screen || this.state.phase !== 'in') return;
    // The browser asks what to share first: cancelled there, nothing is published. Its audio (a
    // tab's sound) comes along when the browser offers it.
    const shared = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: true });
    const [screenTrack] = shared.getVideoTracks();
    const [screenAudio] = shared.getAudioTracks();
    if (!screenTrack || this.closed) {
      for (const t of shared.getTracks()) t.stop();
      return;
    }
    const handle = await attachVideoroom(this.janus, {
      onmessage: (msg, jsep) => {
        if (msg.videoroom === 'joined') {
          offer(handle, [
            { type: 'screen', capture: screenTrack, recv: false },
            ...(screenAudio ? [{ type: 'audio' as const, capture: screenAudio, recv: false }] : []),
          ]).then(
            (jsep2) => handle.send({ message: { request: 'publish' }, jsep: jsep2 }),
            (err: unknown) => {
              log.warn('screen not shared', err);
              void this.stopShare(true);
            },
          );
        }
        if (jsep) handle.handleRemoteJsep({ jsep });
      },
    });
    this.screen = handle;
    this.screenTracks = shared.getTracks();
    // The browser's own "Stop sharing" ends the share here too.
    screenTrack.addEventListener('ended', () => void this.stopShare(true), { once: true });
    this.state.self.sharing = true;
    this.cameraBeforeShare = this.state.self.camera;
    if (this.state.self.camera) await this.setCamera(false);
    handle.send({ message: { request: 'join', room: this.media.room, ptype: 'publisher', display: displayFor({ ...this.who, kind: 'screen' }), pin: this.media.pin } });
  }

  async stopShare(restoreCamera = true): Promise<void> {
    const handle = this.screen;
    if (!handle) return;
    this.screen = null;
    handle.send({ message: { request: 'leave' } });
    handle.hangup();
    handle.detach();
    for (const t of this.screenTracks) t.stop();
    this.screenTracks = [];
    this.state.self.sharing = false;
    if (restoreCamera && this.cameraBeforeShare) await this.setCamera(true);
  }

  /** Leaves the room; the page shows why it ended. */
  leave(): void {
    this.end('left');
  }

  private end(reason: EndReason): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.stateTimer);
    this.state.phase = 'ended';
    this.state.ended = reason;
    try {
      this.screen?.detach();
      this.pub?.send({ message: { request: 'leave' } });
      this.pub?.hangup();
      for (const h of this.subs.values()) h.detach();
      this.janus?.destroy({ cleanupHandles: true });
    } catch (err) {
      log.warn('meeting media not closed', err);
    }
    for (const t of this.state.local?.getTracks() ?? []) t.stop();
    this.subs.clear();
    this.state.peers = {};
  }
}

/** A one-frame black track: the video line's placeholder while the camera is off from the start. */
function blankVideoTrack(): MediaStreamTrack {
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 240;
  canvas.getContext('2d')?.fillRect(0, 0, 320, 240);
  const track = canvas.captureStream(0).getVideoTracks()[0];
  if (!track) throw new Error('no canvas track');
  return track;
}
