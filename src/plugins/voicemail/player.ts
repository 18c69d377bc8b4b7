import { vmState } from './state';
import { log } from './log';

type Announce = (key: string, values?: Record<string, unknown>) => void;

/**
 * One audio element for the plugin, outside React, so that Play/Pause works from the palette and
 * hotkeys on any screen. The audio is fetched with the bearer token as a blob (an <audio> src
 * cannot carry the token); a fetch or decode failure marks it failed.
 */
class VoicemailPlayer {
  private el: HTMLAudioElement | null = null;
  private url: string | null = null;
  private announce: Announce = () => undefined;
  private generation = 0;

  private audio(): HTMLAudioElement {
    if (this.el) return this.el;
    const el = new Audio();
    el.preload = 'auto';
    el.addEventListener('timeupdate', () => (vmState.player.position = el.currentTime));
    el.addEventListener('durationchange', () => {
      if (Number.isFinite(el.duration)) vmState.player.duration = el.duration;
    });
    el.addEventListener('play', () => {
      vmState.player.playing = true;
      this.announce('voicemail:player.announce.playing');
    });
    el.addEventListener('pause', () => {
      vmState.player.playing = false;
      if (!el.ended) this.announce('voicemail:player.announce.paused');
    });
    el.addEventListener('ended', () => {
      vmState.player.playing = false;
      vmState.player.position = 0;
      el.currentTime = 0;
      this.announce('voicemail:player.announce.ended');
    });
    el.addEventListener('error', () => {
      if (!this.url) return;
      vmState.player.audio = 'failed';
      vmState.player.playing = false;
      this.announce('voicemail:player.announce.failed');
    });
    this.el = el;
    return el;
  }

  /** Loads the message's audio and starts it. */
  async load(id: string, fetchAudio: () => Promise<Blob>, announce: Announce): Promise<void> {
    this.announce = announce;
    this.reset();
    const mine = ++this.generation;
    Object.assign(vmState.player, { id, audio: 'loading', playing: false, position: 0, duration: vmState.items?.find((v) => v.id === id)?.durationSeconds ?? 0 });
    announce('voicemail:player.announce.loading');
    let blob: Blob;
    try {
      blob = await fetchAudio();
    } catch (err) {
      if (mine !== this.generation) return;
      vmState.player.audio = 'failed';
      announce('voicemail:player.announce.failed');
      log.error('audio fetch failed', err);
      return;
    }
    if (mine !== this.generation) return;
    const el = this.audio();
    this.url = URL.createObjectURL(blob);
    el.src = this.url;
    vmState.player.audio = 'ready';
    try {
      await el.play();
    } catch (err) {
      // A refused autoplay leaves the audio ready and paused; a broken file fires `error`.
      if (mine === this.generation && (vmState.player.audio as string) !== 'failed') log.warn('play refused', err);
    }
  }

  toggle(): void {
    const el = this.el;
    if (!el || vmState.player.audio !== 'ready') return;
    if (el.paused) void el.play().catch((err: unknown) => log.warn('play refused', err));
    else el.pause();
  }

  seek(seconds: number): void {
    const el = this.el;
    if (!el || vmState.player.audio !== 'ready') return;
    el.currentTime = Math.max(0, Math.min(seconds, Number.isFinite(el.duration) ? el.duration : seconds));
    vmState.player.position = el.currentTime;
  }

  /** Stops and forgets the audio (the message was deleted, or the plugin unloads). */
  reset(): void {
    this.generation++;
    if (this.el) {
      this.el.pause();
      this.el.removeAttribute('src');
      this.el.load();
    }
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = null;
    Object.assign(vmState.player, { id: null, audio: 'idle', playing: false, position: 0, duration: 0 });
  }
}

export const player = new VoicemailPlayer();
