import { Navigation, Notifications, Preferences, type ServiceLookup } from '../../kernel';
import { desktopNotices, showDesktopNotice, type DesktopNotice } from '../../kernel/lazy';
import { log } from './log';

/** Saved true when the user turned the chat sound off (a never-saved preference reads false: sound on). */
export const CHAT_SOUND_OFF = 'uc-chat-sound-off';
/** A burst of messages (offline storage, a busy group) chimes once, not once per message. */
export const CHIME_GAP_MS = 1500;

export interface NewMessageAlert {
  /** Which desktop-notification switch (Preferences ▸ Messages) lets it show. */
  kind: 'chat' | 'texts';
  /** One notification per conversation: a newer message replaces the older one's. */
  tag: string;
  title: string;
  body: string;
  /** Where clicking the notification goes (the chat or the text conversation). */
  to: string;
}

export interface ChatAlerts {
  /** A new message in a conversation that is not on screen (and not muted): notification and sound. */
  newMessage(alert: NewMessageAlert): void;
  soundOn(): boolean;
  /** Flips the chat sound, saves it for every device and says what it is now. */
  toggleSound(): Promise<void>;
}

/**
 * A short two-note chime through WebAudio (no file to fetch): rising 880 → 1319 Hz, fading out in
 * 0.3 s at gain 0.2, the level of the phone's tones.
 */
export function createChime(): () => void {
  let ctx: AudioContext | null = null;
  return () => {
    const Ctor = typeof window === 'object' ? window.AudioContext : undefined;
    if (!Ctor) return;
    ctx ??= new Ctor();
    // Suspended until the page has had a user gesture; then the chime is simply not heard.
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    const t0 = ctx.currentTime;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(0.2, t0);
    gain.gain.exponentialRampToValueAtTime(0.001, t0 + 0.3);
    gain.connect(ctx.destination);
    const notes: Array<[number, number]> = [
      [880, 0],
      [1318.5, 0.09],
    ];
    for (const [i, [frequency, at]] of notes.entries()) {
      const o = ctx.createOscillator();
      o.frequency.value = frequency;
      o.connect(gain);
      o.start(t0 + at);
      o.stop(t0 + at + 0.2);
      if (i === notes.length - 1) o.onended = () => gain.disconnect();
    }
  };
}

const made = new WeakMap<ServiceLookup, ChatAlerts>();

/** The alerts of this signed-in app (chat and texts share them, and the sound preference). */
export function chatAlerts(
  services: ServiceLookup,
  chime: () => void = createChime(),
  now: () => number = Date.now,
  notice: (n: DesktopNotice) => Notification | null = showDesktopNotice,
): ChatAlerts {
  let alerts = made.get(services);
  if (alerts) return alerts;
  let soundOff = false;
  let lastChime = -Infinity;
  const prefs = services.maybe(Preferences);
  let changed = false;
  // The preferences panel saves the sound too: follow it without a reload.
  prefs?.onChange?.(CHAT_SOUND_OFF, (v) => ((changed = true), (soundOff = v === true)));
  const loaded = (prefs?.get<boolean>(CHAT_SOUND_OFF) ?? Promise.resolve(false)).then(
    (v) => void (changed || (soundOff = v === true)),
    () => undefined,
  );
  const notices = desktopNotices(services, notice);
  alerts = {
    newMessage(a) {
      notices.show(a.kind, { tag: a.tag, title: a.title, body: a.body, open: () => services.get(Navigation).navigate(a.to) });
      if (soundOff || now() - lastChime < CHIME_GAP_MS) return;
      lastChime = now();
      try {
        chime();
      } catch (err) {
        log.error('sound', err);
      }
    },
    soundOn: () => !soundOff,
    async toggleSound() {
      await loaded;
      soundOff = !soundOff;
      services.maybe(Notifications)?.toast({ tone: 'success', titleKey: soundOff ? 'messaging:sound.off' : 'messaging:sound.on' });
      await prefs?.set(CHAT_SOUND_OFF, soundOff);
    },
  };
  made.set(services, alerts);
  return alerts;
}
