import type { Page } from 'playwright-core';
import { JanusConnection, type JanusMessage } from '../../server/services/janus-client';

/** What a Janus plugin answered (its `plugindata.data`), or nothing. */
export const pluginData = (m: JanusMessage) => m.plugindata?.data ?? {};

/** A participant's own session on a Janus WebSocket API, attached to the videoroom plugin, as a meeting page opens one. */
export async function videoroomHandle(url: string) {
  const conn = new JanusConnection(url);
  const session = (await conn.send({ janus: 'create' })).data!.id!;
  const handle = (await conn.send({ janus: 'attach', session_id: session, plugin: 'janus.plugin.videoroom' })).data!.id!;
  const message = (body: Record<string, unknown>, jsep?: object): Promise<JanusMessage> => conn.send({ janus: 'message', session_id: session, handle_id: handle, body, ...(jsep ? { jsep } : {}) });
  return { message, close: () => conn.close() };
}

/**
 * In the page: a peer connection (kept as `globalThis.pc`) publishing an oscillator's tone, since a
 * blank page is no secure context for getUserMedia; its offer once ICE gathering is complete.
 */
export function toneOffer(page: Page, frequency = 440): Promise<RTCSessionDescriptionInit> {
  return page.evaluate(async (hz) => {
    const ctx = new AudioContext();
    const tone = ctx.createOscillator();
    tone.frequency.value = hz;
    const out = ctx.createMediaStreamDestination();
    tone.connect(out);
    tone.start();
    const pc = new RTCPeerConnection();
    (globalThis as unknown as { pc: RTCPeerConnection }).pc = pc;
    pc.addTrack(out.stream.getAudioTracks()[0]!, out.stream);
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) => (pc.iceGatheringState === 'complete' ? resolve() : pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve())));
    return { type: pc.localDescription!.type, sdp: pc.localDescription!.sdp };
  }, frequency);
}
