// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyTheme, currentTheme } from './api';

let systemDark = false;
const listeners = new Set<() => void>();
beforeEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
  vi.stubGlobal('matchMedia', () => ({ get matches() { return systemDark; }, addEventListener: (_: string, f: () => void) => listeners.add(f) }));
});
afterEach(() => (vi.unstubAllGlobals(), listeners.clear()));

/** Runs public/theme.js as the page's blocking <head> script does. */
const bootScript = () => new Function(readFileSync(join(__dirname, '..', '..', '..', 'public', 'theme.js'), 'utf8'))() as void;
const theme = () => document.documentElement.getAttribute('data-theme');

describe('theme', () => {
  it('a choice applies at once and is what the boot script applies at the next load', () => {
    applyTheme('dark');
    expect([theme(), currentTheme()]).toEqual(['dark', 'dark']);
    document.documentElement.removeAttribute('data-theme');
    bootScript();
    expect(theme()).toBe('dark');
    applyTheme('light');
    bootScript();
    expect([theme(), currentTheme()]).toEqual(['light', 'light']);
  });

  it('"follow the system" stores nothing and follows the system\'s setting, also when it changes', () => {
    applyTheme('dark');
    systemDark = true;
    applyTheme('system');
    expect([theme(), currentTheme(), localStorage.getItem('uc-theme')]).toEqual(['dark', 'system', null]);
    systemDark = false;
    bootScript();
    expect(theme()).toBe('light');
    systemDark = true;
    for (const f of listeners) f();
    expect(theme()).toBe('dark');
  });
});
