import i18next from 'i18next';
import { Analytics, Api, Connections, Navigation, Notifications, Preferences, Session, type Disposable, type ServiceLookup } from '../../../kernel';
import { desktopNotices } from '../../../kernel/lazy';
import { ContactsApi, PresenceApi, SpeedDialApi } from '../../../contracts';
import { CallSettings } from '../settings/callSettings';
import { DeskPhones } from '../settings/deskPhones';
import { phone } from '../state';
import { uiStrings } from '../uiStrings';
import { threeWayGate, threeWayAllowed } from '../model/callButtons';
import { log } from '../log';
import { createRemoteAudio } from './audio';
import { ClickDialer, clickDialText } from './clickDial';
import { createMixer, type Mixer } from './mixer';
import { desktopNotifier } from './desktop';
import { createJsSipUa } from './jssipUa';
import { tabChannel, tabPeerId } from './peer';
import { PhoneEngine } from './PhoneEngine';
import { tones } from './tonePlayer';
import { audioConstraints, DEFAULT_AUDIO, parseAudioChoice } from '../model/audioConstraints';

let engine: PhoneEngine | null = null;
let starting: Promise<PhoneEngine | null> | null = null;
let unlisten: (() => void) | null = null;
let peer: string | null = null;
let settings: CallSettings | null = null;
let deskPhones: DeskPhones | null = null;
let clickDialer: ClickDialer | null = null;
let clickDialWatch: Disposable | undefined;

/** The click-dial notice's Dismiss. */
export function dismissClickDial(): void {
  clickDialer?.dismiss();
}

/** Do-not-disturb and forwarding, once the phone has started for a user with an extension. */
export function currentSettings(): CallSettings | null {
  return settings;
}

const lastDialledKey = (userId: number) => `uc.telephony.lastDialled.${userId}`;
const devicesKey = (userId: number) => `uc.telephony.devices.${userId}`;

export function currentEngine(): PhoneEngine | null {
  return engine;
}

/** Starts the phone once (after the first screen has painted): strings, then the engine. */
export function startEngine(services: ServiceLookup): Promise<PhoneEngine | null> {
  starting ??= (async () => {
    await uiStrings();
    const session = services.get(Session);
    if (!session.config.sip.configured) {
      phone.status = 'unconfigured';
      return null;
    }
    const userId = session.userId;
    try {
      phone.lastDialled = localStorage.getItem(lastDialledKey(userId)) ?? '';
    } catch {
      /* no storage: no redial across reloads */
    }
    const channel = tabChannel(userId);
    peer ??= await tabPeerId(channel);
    const p = session.profile;
    const dialer = new ClickDialer(services.get(Api), phone, (state) =>
      services.get(Notifications).announce(clickDialText(state, (key, values) => i18next.t(key, values)), state.phase === 'failed' ? 'assertive' : 'polite'),
    );
    clickDialer = dialer;
    const prefs = services.maybe(Preferences);
    prefs?.get('uc-click-dial').then((v) => dialer.adopt(v), (err: unknown) => log.error('reading "call my phone first" failed', err));
    clickDialWatch = prefs?.onChange?.('uc-click-dial', (v) => dialer.adopt(v));
    const e = new PhoneEngine({
      api: services.get(Api),
      notify: services.get(Notifications),
      connections: services.get(Connections),
      sip: session.config.sip,
      displayName: `${p.first_name} ${p.last_name}`.trim() || p.username,
      peer,
      createUa: createJsSipUa,
      audio: createRemoteAudio(),
      tones: tones(),
      t: (key, values) => i18next.t(key, values),
      lookupName: (n) => services.maybe(ContactsApi)?.lookupNumber(n)?.name,
      presence: () => services.maybe(PresenceApi)?.ownState(),
      setOnCall: (onCall) => services.maybe(PresenceApi)?.setOnCall(onCall),
      speedDial: () => services.maybe(SpeedDialApi),
      contacts: () => services.maybe(ContactsApi),
      clickDial: (number, name) => dialer.place(number, name),
      placed: () => services.maybe(Analytics)?.track('call_placed'),
      channel,
      getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
      threeWay: () => threeWayAllowed(threeWayGate(session.config.features, navigator.userAgent)),
      createMixer: (): Mixer => createMixer(() => navigator.mediaDevices.getUserMedia({ audio: audioConstraints(phone.devices), video: false })),
      desktop: desktopNotifier({ t: (key, values) => i18next.t(key, values), navigate: (to) => services.get(Navigation).navigate(to), notices: desktopNotices(services) }),
      devices: {
        load: () => {
          try {
            return parseAudioChoice(JSON.parse(localStorage.getItem(devicesKey(userId)) ?? 'null'));
          } catch {
            return { ...DEFAULT_AUDIO };
          }
        },
        save: (choice) => {
          try {
            localStorage.setItem(devicesKey(userId), JSON.stringify(choice));
          } catch {
            /* no storage: the choice lasts until the tab closes */
          }
        },
      },
      rememberDialled: (dial) => {
        try {
          localStorage.setItem(lastDialledKey(userId), dial);
        } catch {
          /* no storage */
        }
      },
    });
    engine = e;
    settings = new CallSettings(services.get(Api), services.get(Notifications), (key, values) => i18next.t(key, values));
    settings.start();
    deskPhones = new DeskPhones(services.get(Api));
    deskPhones.start();
    const online = () => e.online();
    // A closing tab unregisters and ends its calls cleanly instead of leaving a dead contact.
    const pagehide = () => {
      e.releaseHold();
      e.dispose();
    };
    addEventListener('online', online);
    addEventListener('pagehide', pagehide);
    unlisten = () => {
      removeEventListener('online', online);
      removeEventListener('pagehide', pagehide);
    };
    e.start();
    return e;
  })();
  return starting;
}

export function stopEngine(): void {
  unlisten?.();
  unlisten = null;
  engine?.releaseHold();
  engine?.dispose();
  engine = null;
  settings?.stop();
  settings = null;
  deskPhones?.stop();
  deskPhones = null;
  clickDialWatch?.dispose();
  clickDialWatch = undefined;
  clickDialer?.dispose();
  clickDialer = null;
  starting = null;
}
