import { phone } from '../state';
import { nameOf, type CallTable } from './calls';
import type { EngineDeps } from './deps';
import type { Mixer } from './mixer';
import { log } from '../log';

export type ThreeWayDeps = Pick<EngineDeps, 'notify' | 't' | 'threeWay' | 'createMixer'>;

/** 3-way calls: a held call and the connected one, each leg hearing the other through a mixer. */
export class ThreeWay {
  /** The running 3-way call's mixer, if any. */
  private mixer: Mixer | null = null;

  constructor(
    private readonly deps: ThreeWayDeps,
    private readonly calls: CallTable,
  ) {
    calls.onEnded((c) => {
      if (c.mergedWith) this.unmerge(c.id);
    });
  }

  /**
   * Merges the held call `id` with the connected one into a 3-way call: the held call is resumed
   * and the audio of each leg mixed into the other (see mixer.ts). Needs the 3-way feature flags;
   * not while a 3-way call exists.
   */
  async merge(id = this.heldId()): Promise<boolean> {
    const held = this.calls.record(id);
    const active = Object.values(phone.calls).find((c) => c.state === 'active' && c.id !== id);
    const heldSession = this.calls.session(id);
    const activeSession = this.calls.session(active?.id);
    if (!held || held.state !== 'hold' || !active || !heldSession || !activeSession || this.mixer || !this.deps.threeWay?.() || !this.deps.createMixer) return false;
    heldSession.unhold();
    const mixer = this.deps.createMixer();
    this.mixer = mixer;
    held.mergedWith = active.id;
    active.mergedWith = held.id;
    try {
      await mixer.start([
        { id: active.id, pc: activeSession.connection! },
        { id: held.id, pc: heldSession.connection! },
      ]);
      if (active.muted || held.muted) {
        mixer.setMuted(true);
        active.muted = held.muted = true;
      }
      this.deps.notify.announce(this.deps.t('telephony:announce.merged', { a: nameOf(active), b: nameOf(held) }), 'polite');
      return true;
    } catch (err) {
      log.error('merging failed', err);
      this.unmerge(active.id);
      this.deps.notify.toast({ tone: 'error', titleKey: 'telephony:errors.mergeTitle', messageKey: 'telephony:errors.mergeFailed' });
      return false;
    }
  }

  /** The newest call on hold (what "Merge calls" merges with the connected one). */
  heldId(): string | undefined {
    return Object.values(phone.calls)
      .filter((c) => c.state === 'hold')
      .sort((a, b) => b.seq - a.seq)[0]?.id;
  }

  /** Ends the 3-way mix: each remaining leg gets its own microphone back. */
  private unmerge(id: string): void {
    const c = phone.calls[id];
    const other = c?.mergedWith ? phone.calls[c.mergedWith] : undefined;
    if (c) c.mergedWith = null;
    if (other) other.mergedWith = null;
    this.mixer?.stop();
    this.mixer = null;
  }

  /**
   * Mutes or unmutes a connected or held call of the 3-way call: both legs carry the mixed audio,
   * so the microphone is muted in the mix. False for a call that is not part of one.
   */
  toggleMute(id: string | undefined): boolean {
    const c = this.calls.record(id);
    if (!c || !this.calls.session(id) || (c.state !== 'active' && c.state !== 'hold') || !c.mergedWith || !this.mixer) return false;
    const muted = !c.muted;
    this.mixer.setMuted(muted);
    for (const leg of [c, this.calls.record(c.mergedWith)]) if (leg) leg.muted = muted;
    return true;
  }
}
