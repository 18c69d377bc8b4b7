import type { HotkeyManager } from '../kernel';

let instance: HotkeyManager | null = null;

export function setHotkeyManager(m: HotkeyManager): void {
  instance = m;
}

/** The page's single hotkey listener (created at boot, after the kernel). */
export function hotkeyManager(): HotkeyManager {
  if (!instance) throw new Error('hotkeys not started');
  return instance;
}
