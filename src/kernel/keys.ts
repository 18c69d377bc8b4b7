/**
 * Key binding strings (tinykeys syntax) normalised for comparison and shown to people.
 */
const MODIFIER_ORDER = ['control', 'alt', 'shift', 'meta'] as const;

export function isMacPlatform(): boolean {
  return typeof navigator === 'object' && /Mac|iPod|iPhone|iPad/.test(navigator.platform);
}

/** Canonical form: lower case, `$mod` resolved for the platform, modifiers in a fixed order. */
export function normaliseBinding(binding: string, mac = isMacPlatform()): string {
  return binding
    .trim()
    .split(/\s+/)
    .map((press) => {
      const parts = press.split(/\b\+/);
      const key = (parts.pop() ?? '').toLowerCase();
      const mods = parts.map((m) => {
        const l = m.toLowerCase();
        if (l === '$mod') return mac ? 'meta' : 'control';
        if (l === 'ctrl') return 'control';
        if (l === 'cmd') return 'meta';
        return l;
      });
      mods.sort((a, b) => MODIFIER_ORDER.indexOf(a as never) - MODIFIER_ORDER.indexOf(b as never));
      return [...mods, key].join('+');
    })
    .join(' ');
}

const LABELS: Record<string, string> = {
  control: 'Ctrl',
  alt: 'Alt',
  shift: 'Shift',
  meta: 'Cmd',
  escape: 'Esc',
  arrowup: '↑',
  arrowdown: '↓',
  arrowleft: '←',
  arrowright: '→',
  enter: 'Enter',
  delete: 'Del',
  backspace: 'Backspace',
  ' ': 'Space',
};

/** "Ctrl+K", "G then H" → shown as key caps, one array per press. */
export function bindingToKeys(binding: string, mac = isMacPlatform()): string[][] {
  return normaliseBinding(binding, mac)
    .split(' ')
    .map((press) =>
      press.split('+').map((p) => {
        if (mac && p === 'meta') return '⌘';
        if (mac && p === 'alt') return '⌥';
        return LABELS[p] ?? (p.length === 1 ? p.toUpperCase() : p.charAt(0).toUpperCase() + p.slice(1));
      }),
    );
}

export function formatBinding(binding: string, mac = isMacPlatform()): string {
  return bindingToKeys(binding, mac)
    .map((k) => k.join('+'))
    .join(' ');
}

/** Turns a keydown into a binding string, for "press the new shortcut" capture. */
export function bindingFromEvent(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'>): string | null {
  if (['Control', 'Alt', 'Shift', 'Meta', 'AltGraph'].includes(e.key)) return null;
  const mods: string[] = [];
  if (e.ctrlKey) mods.push('Control');
  if (e.altKey) mods.push('Alt');
  if (e.shiftKey) mods.push('Shift');
  if (e.metaKey) mods.push('Meta');
  const key = e.key === ' ' ? 'Space' : e.key;
  return [...mods, key].join('+');
}
