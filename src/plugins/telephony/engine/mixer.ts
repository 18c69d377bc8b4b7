/**
 * The 3-way call's audio, mixed in this browser (there is no conference bridge on the server):
 * each leg sends the user's microphone plus what the other leg says, and the user hears both legs
 * (their audio elements keep playing). Built with WebAudio and swapped into the legs' senders with
 * replaceTrack, so neither far end sees a renegotiation.
 */
export interface Mixer {
  start(legs: ReadonlyArray<{ id: string; pc: RTCPeerConnection }>): Promise<void>;
  setMuted(muted: boolean): void;
  /** Gives every leg still open its own microphone track back. */
  stop(): void;
}

export function createMixer(getMicrophone: () => Promise<MediaStream>): Mixer {
  let ctx: AudioContext | null = null;
  let mic: MediaStream | null = null;
  let micGain: GainNode | null = null;
  const restore: Array<{ pc: RTCPeerConnection; sender: RTCRtpSender; track: MediaStreamTrack | null }> = [];
  return {
    async start(legs) {
      ctx = new AudioContext();
      mic = await getMicrophone();
      micGain = ctx.createGain();
      ctx.createMediaStreamSource(mic).connect(micGain);
      const remote = new Map<string, MediaStreamAudioSourceNode>();
      for (const leg of legs) {
        const tracks = leg.pc.getReceivers().flatMap((r) => (r.track?.kind === 'audio' ? [r.track] : []));
        if (tracks.length) remote.set(leg.id, ctx.createMediaStreamSource(new MediaStream(tracks)));
      }
      for (const leg of legs) {
        const out = ctx.createMediaStreamDestination();
        micGain.connect(out);
        for (const [id, source] of remote) if (id !== leg.id) source.connect(out);
        const sender = leg.pc.getSenders().find((s) => s.track?.kind === 'audio');
        if (!sender) continue;
        restore.push({ pc: leg.pc, sender, track: sender.track });
        await sender.replaceTrack(out.stream.getAudioTracks()[0] ?? null);
      }
      // Autoplay rules may start the context suspended; the user just pressed Merge.
      if (ctx.state === 'suspended') await ctx.resume().catch(() => undefined);
    },
    setMuted(muted) {
      if (micGain) micGain.gain.value = muted ? 0 : 1;
    },
    stop() {
      for (const { pc, sender, track } of restore.splice(0)) {
        if (pc.signalingState !== 'closed') void sender.replaceTrack(track).catch(() => undefined);
      }
      for (const t of mic?.getTracks() ?? []) t.stop();
      void ctx?.close().catch(() => undefined);
      ctx = null;
      mic = null;
      micGain = null;
    },
  };
}
