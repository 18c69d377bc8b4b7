import { subscribe } from 'valtio';
import { Notifications, toDisposable, type PluginContext } from '../../kernel';
import i18next from 'i18next';
import type { ConnectionTestOutcome, ForwardingState, TelephonyService } from '../../contracts';
import type { Destination } from '../../wire/calling';
import { telephonyChunk } from './chunk';
import { audioConstraints } from './model/audioConstraints';
import { phone } from './state';

const callSettings = async (services: PluginContext['services']) => {
  await telephonyChunk.withEngine(services, () => undefined);
  return (await telephonyChunk.load()).currentSettings();
};

/** A forwarding destination as the user reads it (their own voicemail box by its name). */
function destinationText(d: Destination | null | undefined): string | null {
  if (!d) return null;
  if (d.destination_type === 'box') return i18next.t('telephony:settings.voicemailBox');
  return d.destination_name ? `${d.destination_name} (${d.destination_parameter ?? ''})` : (d.destination_parameter ?? null);
}

function forwardingState(): ForwardingState | null {
  const { dnd, forwardAlways } = phone.settings;
  if (dnd === null || forwardAlways === null) return null;
  return { dnd, forwardAlways: forwardAlways.enabled, destination: destinationText(forwardAlways.destination) };
}

/** TelephonyApi, what other plugins call (history's and voicemail's call back, the end of a call). */
export function telephonyService(ctx: PluginContext): TelephonyService {
  return {
    async call(target, opts) {
      if (phone.status === 'unconfigured') {
        ctx.services.get(Notifications).toast({ tone: 'error', titleKey: 'telephony:reasons.notConfigured' });
        return;
      }
      await telephonyChunk.withEngine(ctx.services, (e) => e.call(target, opts));
    },
    async testConnection(onProgress) {
      const unconfigured = () => phone.status === 'unconfigured';
      if (unconfigured()) return { ok: false, reason: 'notConfigured' };
      let outcome: ConnectionTestOutcome = { ok: false, reason: 'notRegistered' };
      try {
        await telephonyChunk.withEngine(ctx.services, async (e) => {
          outcome = await e.testConnection(onProgress);
        });
      } catch (err) {
        // The chunk did not load (offline, a new deployment): the phone is not there to test.
        ctx.log.error('connection test: the phone did not start', err);
      }
      // Starting the phone is how the plugin learns that calling is not set up for this user.
      return unconfigured() ? { ok: false, reason: 'notConfigured' } : outcome;
    },
    async audio() {
      // The engine reads the remembered choice as it starts; without calling, the defaults stay.
      await telephonyChunk.withEngine(ctx.services, () => undefined).catch((err: unknown) => ctx.log.error('audio settings: the phone did not start', err));
      return { ...phone.devices };
    },
    async setAudio(change) {
      await telephonyChunk.withEngine(ctx.services, (e) => e.setAudio(change));
    },
    openMicrophone: (choice) => navigator.mediaDevices.getUserMedia({ audio: audioConstraints(choice), video: false }),
    async testTone(output) {
      await telephonyChunk.withEngine(ctx.services, (e) => e.testTone(output));
    },
    async forwarding() {
      await telephonyChunk.withEngine(ctx.services, () => undefined);
      const settings = (await telephonyChunk.load()).currentSettings();
      if (!settings) return null;
      await settings.refresh();
      return forwardingState();
    },
    async setDnd(on) {
      const settings = await callSettings(ctx.services);
      return settings ? settings.setDnd(on) : false;
    },
    async setForwardAlways(on) {
      const settings = await callSettings(ctx.services);
      return settings ? (await settings.setForwardAlways(on)) === null : false;
    },
    onCallEnded: (listener) => {
      // Read from the calls' state (in the boot part), so listening loads nothing.
      let live = new Set<string>();
      return toDisposable(
        subscribe(phone, () => {
          const now = new Set(Object.values(phone.calls).filter((c) => c.state !== 'none').map((c) => c.id));
          const ended = [...live].some((id) => !now.has(id));
          live = now;
          if (ended) listener();
        }),
      );
    },
  };
}
