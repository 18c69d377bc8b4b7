import type { JanusJS } from 'janus-gateway';

export type JanusCtor = typeof JanusJS.Janus;
export type JanusSession = JanusJS.Janus;
export type Handle = JanusJS.PluginHandle;
export type Jsep = JanusJS.JSEP;
export type HandleCallbacks = Omit<JanusJS.PluginOptions, 'plugin' | 'success' | 'error'>;

let loading: Promise<JanusCtor> | null = null;

/**
 * janus.js (Meetecho's own client) and the WebRTC adapter it needs: fetched when someone joins a
 * meeting's media, never before (they are the meeting page's weight, not the app's).
 */
export function loadJanus(): Promise<JanusCtor> {
  return (loading ??= Promise.all([import('janus-gateway'), import('webrtc-adapter')]).then(
    ([janus, adapter]) =>
      new Promise<JanusCtor>((resolve) => {
        const Janus = janus.default;
        Janus.init({ debug: false, dependencies: Janus.useDefaultDependencies({ adapter: adapter.default }), callback: () => resolve(Janus) });
      }),
    (err: unknown) => {
      loading = null;
      throw err;
    },
  ));
}

/** A Janus session over its WebSocket; `onLost` when the server goes away afterwards. */
export function connect(Janus: JanusCtor, server: string, iceServers: RTCIceServer[], onLost: (why: string) => void): Promise<JanusSession> {
  return new Promise((resolve, reject) => {
    let up = false;
    const session: JanusSession = new Janus({
      server,
      iceServers,
      destroyOnUnload: true,
      success: () => {
        up = true;
        resolve(session);
      },
      error: (err: unknown) => {
        const why = String(err);
        if (up) onLost(why);
        else reject(new Error(why));
      },
    });
  });
}

/** A handle on the videoroom plugin. */
export function attachVideoroom(session: JanusSession, callbacks: HandleCallbacks): Promise<Handle> {
  return new Promise((resolve, reject) => {
    session.attach({
      plugin: 'janus.plugin.videoroom',
      ...callbacks,
      success: resolve,
      error: (err: string) => reject(new Error(err)),
    });
  });
}

export const offer = (handle: Handle, tracks: JanusJS.TrackOption[]): Promise<Jsep> =>
  new Promise((resolve, reject) => handle.createOffer({ tracks, success: resolve, error: (e: Error) => reject(e) }));

export const answer = (handle: Handle, jsep: Jsep, tracks: JanusJS.TrackOption[]): Promise<Jsep> =>
  new Promise((resolve, reject) => handle.createAnswer({ jsep, tracks, success: resolve, error: (e: string) => reject(new Error(e)) }));

export const replaceTracks = (handle: Handle, tracks: JanusJS.TrackOption[]): Promise<void> =>
  new Promise((resolve, reject) => handle.replaceTracks({ tracks, success: () => resolve(), error: (e: string) => reject(new Error(e)) }));

export const sendData = (handle: Handle, text: string): Promise<void> =>
  new Promise((resolve, reject) => handle.data({ text, success: () => resolve(), error: (e: string) => reject(new Error(e)) }));
