import i18next from 'i18next';
import { expect, it } from 'vitest';
import { allFeatures, Kernel } from '../../src/kernel';
import { PaletteIndex } from '../../src/palette/model';
import { createShellPlugin } from '../../src/shell/shellPlugin';

/** The options "Change language ▸" offers for `query` with the screen in `ui`. */
async function options(ui: string, query: string): Promise<string[]> {
  const i18n = i18next.createInstance();
  await i18n.init({ lng: ui, resources: {} });
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([createShellPlugin({ setLanguage: async () => undefined })]);
  const arg = kernel.commands.get('shell.language')!.item.args![0]!;
  return new PaletteIndex(kernel, { ...kernel.snapshot(), language: ui }, i18n.t.bind(i18n)).argRows(arg, query).flatMap((r) => (r.kind === 'option' ? [r.option.label] : []));
}

it('each language shows its own name and its name in the language of the screen, and is found by either', async () => {
  expect((await options('en', 'german'))[0]).toBe('Deutsch — German');
  expect((await options('en', 'arab'))[0]).toBe('العربية — Arabic');
  expect((await options('en', 'deutsch'))[0]).toBe('Deutsch — German');
  expect((await options('en', 'العربية'))[0]).toBe('العربية — Arabic');
  // A German screen names them in German, an Arabic one in Arabic.
  expect((await options('de', 'arabisch'))[0]).toBe('العربية — Arabisch');
  expect((await options('ar', 'الألمانية'))[0]).toBe('Deutsch — الألمانية');
  // The language of the screen is not named twice.
  expect((await options('de', 'deutsch'))[0]).toBe('Deutsch');
});
