import i18next from 'i18next';
import { Api, Connections, ContactsApi, Notifications, PresenceApi, Session, SpeedDialApi, type ServiceLookup } from '../../../kernel';
import { phone } from '../state';
import { followLanguage, uiStrings } from '../uiStrings';
import { createRemoteAudio } from './audio';
import { createJsSipUa } from './jssipUa';
import { tabChannel, tabPeerId } from './peer';
import { PhoneEngine } from './PhoneEngine';
import { tones } from './tonePlayer';

let engine: PhoneEngine | null = null;
let starting: Promise<PhoneEngine | null> | null = null;
let unlisten: (() => void) | null = null;
let peer: string | null = null;

const lastDialledKey = (userId: number) => `uc.telephony.lastDialled.${userId}`;

export function currentEngine(): PhoneEngine | null {
  return engine;
}

/** Starts the phone once (after the first screen has painted): strings, then the engine. */
export function startEngine(services: ServiceLookup): Promise<PhoneEngine | null> {
  starting ??= (async () => {
    followLanguage();
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
      speedDial: () => services.maybe(SpeedDialApi),
      channel,
      rememberDialled: (dial) => {
        try {
          localStorage.setItem(lastDialledKey(userId), dial);
        } catch {
          /* no storage */
        }
      },
    });
    engine = e;
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
  starting = null;
}
