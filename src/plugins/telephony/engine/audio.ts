import type { RemoteAudio } from './types';
import { log } from '../log';

/** One hidden, autoplaying audio element per call, fed by that call's remote track. */
export function createRemoteAudio(doc: Document = document): RemoteAudio {
  const elements = new Map<string, HTMLAudioElement>();
  let sink = '';
  const applySink = (el: HTMLAudioElement) => {
    // setSinkId is missing in some browsers (then the system's output is used).
    const media = el as HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> };
    void media.setSinkId?.(sink).catch((err: unknown) => log.error('speaker', err));
  };
  return {
    setSink(deviceId) {
      sink = deviceId ?? '';
      for (const el of elements.values()) applySink(el);
    },
    attach(callId, pc) {
      let el = elements.get(callId);
      if (!el) {
        el = doc.createElement('audio');
        el.autoplay = true;
        el.dataset.call = callId;
        doc.body.append(el);
        elements.set(callId, el);
        if (sink) applySink(el);
      }
      const audio = el;
      const play = (stream: MediaStream) => {
        audio.srcObject = stream;
        // Autoplay may be refused before any user gesture; the element plays once it is allowed.
        void audio.play().catch(() => undefined);
      };
      pc.addEventListener('track', (e) => play(e.streams[0] ?? new MediaStream([e.track])));
      const live = pc.getReceivers().flatMap((r) => (r.track && r.track.readyState === 'live' ? [r.track] : []));
      if (live.length) play(new MediaStream(live));
    },
    detach(callId) {
      const el = elements.get(callId);
      if (!el) return;
      el.srcObject = null;
      el.remove();
      elements.delete(callId);
    },
  };
}
