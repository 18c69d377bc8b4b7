import { tinykeys } from 'tinykeys';
import type { HotkeyOverrides } from '../wire';
import type { ContextSnapshot, HotkeyContribution } from './contract';
import { toDisposable, type Disposable } from './disposable';
import type { Kernel } from './kernel';
import { normaliseBinding } from './keys';

export interface EffectiveHotkey {
  hotkey: HotkeyContribution;
  plugin: string;
  /** The binding in force: the user's override, the default, or null when switched off. */
  keys: string | null;
  overridden: boolean;
}

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'OS']);
/** How long a hotkey pressed before its plugin knows what it offers waits for it (then it is dropped). */
export const HOLD_MS = 5000;

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
  }
  return target.getAttribute('role') === 'combobox' || target.getAttribute('role') === 'textbox';
}

/** Any aria-modal dialog (ours or a widget library's) owns focus. */
function modalInDocument(): boolean {
  return typeof document === 'object' && document.querySelector('[aria-modal="true"]') !== null;
}

/**
 * The one keyboard listener. Among hotkeys bound to the pressed keys whose `when` holds, the
 * highest weight wins; a tie runs nothing (and warns). Off in text fields and while a modal owns
 * focus, except hotkeys marked `allowInInputs`: the palette key, and the call chords (answer,
 * decline, hang up, hold, mute) so that a call can be handled without leaving a text field.
 */
export class HotkeyManager implements Disposable {
  private overrides: HotkeyOverrides = {};
  /** Key presses that completed a chord: they belong to it, whether or not its command applies. */
  private readonly chordEnds = new WeakSet<KeyboardEvent>();
  private unbind: (() => void) | null = null;
  /** The bindings tinykeys listens for (normalised), and the hotkeys each one may run. */
  private boundSignature = '';
  private candidates = new Map<string, EffectiveHotkey[]>();
  private readonly unsubscribe: () => void;
  private suspended = false;
  private version = 0;
  /** Counts non-modifier key presses and clicks, so that a held hotkey knows whether the user has moved on. */
  private presses = 0;
  private readonly countPress = (ev: Event) => {
    if (ev.type === 'pointerdown' || !MODIFIERS.has((ev as KeyboardEvent).key)) this.presses++;
  };
  private disposed = false;
  private readonly listeners = new Set<() => void>();

  /** For useSyncExternalStore: bumps whenever the bindings in force change. */
  getVersion = (): number => this.version;
  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  constructor(
    private readonly kernel: Kernel,
    private readonly target: Window | HTMLElement = window,
  ) {
    this.unsubscribe = kernel.hotkeys.subscribe(() => this.rebind());
    target.addEventListener('keydown', this.countPress, true);
    target.addEventListener('pointerdown', this.countPress, true);
    this.rebind();
  }

  setOverrides(overrides: HotkeyOverrides): void {
    this.overrides = { ...overrides };
    this.rebind();
  }

  getOverrides(): HotkeyOverrides {
    return { ...this.overrides };
  }

  /** While capturing a new binding in the shortcuts dialog, nothing fires. */
  suspend(on: boolean): void {
    this.suspended = on;
  }

  effective(): EffectiveHotkey[] {
    return this.kernel.hotkeys.entries().map(({ item }) => {
      const o = this.overrides[item.item.command];
      return {
        hotkey: item.item,
        plugin: item.plugin,
        keys: o === undefined ? item.item.keys : o,
        overridden: o !== undefined,
      };
    });
  }

  /** Another command already using `keys` in the same scope, for the remap dialog's warning. */
  conflictFor(command: string, keys: string): EffectiveHotkey | undefined {
    const me = this.effective().find((e) => e.hotkey.command === command);
    const scope = me?.hotkey.scope ?? 'global';
    const norm = normaliseBinding(keys);
    return this.effective().find(
      (e) => e.hotkey.command !== command && e.keys !== null && (e.hotkey.scope ?? 'global') === scope && normaliseBinding(e.keys) === norm,
    );
  }

  dispose(): void {
    this.disposed = true;
    this.target.removeEventListener('keydown', this.countPress, true);
    this.target.removeEventListener('pointerdown', this.countPress, true);
    this.unsubscribe();
    this.unbind?.();
    this.unbind = null;
  }

  private rebind(): void {
    const byBinding = new Map<string, { keys: string; candidates: EffectiveHotkey[] }>();
    for (const e of this.effective()) {
      if (!e.keys) continue;
      const norm = normaliseBinding(e.keys);
      const slot = byBinding.get(norm) ?? { keys: e.keys, candidates: [] };
      slot.candidates.push(e);
      byBinding.set(norm, slot);
    }
    this.candidates = new Map([...byBinding].map(([norm, slot]) => [norm, slot.candidates]));
    // A new tinykeys listener forgets a chord half typed ("g" of "g r"): it is replaced only when the
    // bindings themselves change, not when the same ones are read again (preferences after sign-in).
    const signature = [...byBinding.keys()].sort().join('\n');
    if (!this.unbind || signature !== this.boundSignature) {
      this.unbind?.();
      const map: Record<string, (ev: KeyboardEvent) => void> = {};
      // tinykeys calls every binding a key completes, in the map's order: chords first, so that the
      // press ending "g c" is claimed by the chord before "c" alone (call back) sees it.
      const presses = (keys: string) => keys.trim().split(/\s+/).length;
      for (const [norm, { keys }] of [...byBinding].sort(([, a], [, b]) => presses(b.keys) - presses(a.keys))) {
        const chord = presses(keys) > 1;
        map[keys] = (ev) => {
          if (chord) this.chordEnds.add(ev);
          else if (this.chordEnds.has(ev)) return;
          this.dispatch(ev, this.candidates.get(norm) ?? []);
        };
      }
      this.unbind = tinykeys(this.target as Window, map);
      this.boundSignature = signature;
    }
    this.version++;
    for (const l of [...this.listeners]) l();
  }

  private dispatch(ev: KeyboardEvent, candidates: EffectiveHotkey[]): void {
    if (this.suspended || ev.defaultPrevented) return;
    const blocked = isTextField(ev.target) || modalInDocument();
    const context = this.kernel.snapshot();
    const winner = this.pick(candidates, context, blocked || context.modalOpen);
    if (winner === 'none') {
      // Nothing applies yet, but a plugin is still finding out what it offers (just after sign-in):
      // hold the keys and try again once it knows, unless the user has pressed anything since.
      if (!blocked && !context.modalOpen && this.kernel.isSettling) this.hold(candidates);
      return;
    }
    if (winner === 'tie') return;
    ev.preventDefault();
    void this.kernel.run(winner.hotkey.command, winner.hotkey.args ?? {}, 'hotkey', context);
  }

  private pick(candidates: EffectiveHotkey[], context: ContextSnapshot, blocked: boolean): EffectiveHotkey | 'none' | 'tie' {
    const live = candidates.filter((c) => (!blocked || c.hotkey.allowInInputs) && this.applies(c, context));
    if (live.length === 0) return 'none';
    const top = Math.max(...live.map((c) => c.hotkey.weight ?? 0));
    const winners = live.filter((c) => (c.hotkey.weight ?? 0) === top);
    if (winners.length > 1) {
      console.warn(`hotkey tie between ${winners.map((w) => w.hotkey.command).join(', ')}: nothing runs`);
      return 'tie';
    }
    return winners[0]!;
  }

  private hold(candidates: EffectiveHotkey[]): void {
    const at = this.presses;
    const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, HOLD_MS));
    void Promise.race([this.kernel.whenSettled(), gaveUp]).then(() => {
      if (this.disposed || this.suspended || this.presses !== at || this.kernel.isSettling) return;
      const context = this.kernel.snapshot();
      const blocked = isTextField(typeof document === 'object' ? document.activeElement : null) || modalInDocument() || context.modalOpen;
      const winner = this.pick(candidates, context, blocked);
      if (winner !== 'none' && winner !== 'tie') void this.kernel.run(winner.hotkey.command, winner.hotkey.args ?? {}, 'hotkey', context);
    });
  }

  private applies(c: EffectiveHotkey, context: ContextSnapshot): boolean {
    if (c.hotkey.when && !c.hotkey.when(context)) return false;
    const cmd = this.kernel.commands.get(c.hotkey.command)?.item;
    if (!cmd) return false;
    if (!this.kernel.isVisible(cmd, context)) return false;
    return this.kernel.enablement(cmd, this.kernel.commandContext('hotkey', context)) === true;
  }
}

export function hotkeyManagerDisposable(m: HotkeyManager): Disposable {
  return toDisposable(() => m.dispose());
}
