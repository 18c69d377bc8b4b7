import { subscribe } from 'valtio';
import { Notifications, toDisposable, type PluginContext } from '../../kernel';
import type { ConnectionTestOutcome, TelephonyService } from '../../contracts';
import { telephonyChunk } from './chunk';
import { phone } from './state';

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
