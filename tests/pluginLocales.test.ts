import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/kernel/i18n';
import { plugins } from '../src/plugins';

// The files are checked key by key in i18n.test.ts; this checks that each manifest's loader (the
// product's one loader of every plugin's `locales/`, src/plugins/index.ts) finds them.
describe('every plugin loads its strings in every language', () => {
  for (const p of plugins.filter((x) => x.i18n)) {
    it(`${p.id}`, async () => {
      for (const lng of LANGUAGES) {
        const strings = await p.i18n!.load!(lng);
        expect(Object.keys(strings).length, `${p.id} ${lng}`).toBeGreaterThan(0);
      }
    });
  }
  it('an unknown language is refused, not answered with English', async () => {
    const messaging = plugins.find((p) => p.id === 'messaging')!;
    await expect(messaging.i18n!.load!('xx')).rejects.toThrow();
  });
});
