import { describe, expect, it } from 'vitest';
import { LANGUAGES, nativeLanguageName } from '../../src/kernel/i18n';

describe('nativeLanguageName', () => {
  it('names each language in itself, capitalised, the same every time', () => {
    expect(nativeLanguageName('de')).toBe('Deutsch');
    expect(nativeLanguageName('fr')).toBe('Français');
    for (const l of LANGUAGES) {
      const name = nativeLanguageName(l);
      expect(name.length).toBeGreaterThan(1);
      expect(nativeLanguageName(l)).toBe(name);
    }
  });
});
