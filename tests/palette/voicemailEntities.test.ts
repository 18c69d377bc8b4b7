import i18next from 'i18next';
import { ref } from 'valtio';
import { beforeAll, expect, it } from 'vitest';
import { allFeatures, definePlugin, Kernel } from '../../src/kernel';
import { PaletteIndex } from '../../src/palette/model';
import { voicemailPlugin } from '../../src/plugins/voicemail/index';
import { entityFor } from '../../src/plugins/voicemail/lazy';
import { palette, type Voicemail } from '../../src/plugins/voicemail/state';
import en from '../../src/plugins/voicemail/strings/en.json';

const jonas: Voicemail = {
  id: '1',
  status: 'UNREAD',
  callerNumber: '+12065550137',
  callerName: 'Jonas Berg',
  durationSeconds: 42,
  timestamp: new Date(Date.now() - 2 * 60_000).toISOString(),
  transcriptState: 'Succeeded',
  transcript: null,
};

beforeAll(async () => {
  await i18next.init({ lng: 'en', fallbackLng: 'en', resources: {}, interpolation: { escapeValue: false } });
});

it('a voicemail built before its strings are loaded is listed by its words once they are, never as "entity"', () => {
  // Just after sign-in: the messages came before the lazily loaded strings.
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([definePlugin({ id: 'voicemail', titleKey: 'voicemail:title', searchProviders: voicemailPlugin.searchProviders })]);
  palette.entities = ref([entityFor(jonas, new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' }), Date.now())]);
  const rows = (q: string) => new PaletteIndex(kernel, kernel.snapshot(), i18next.t.bind(i18next)).root(q, []);
  const titles = (q: string) => rows(q).flatMap((r) => (r.kind === 'entity' ? [`${r.entity.label} | ${r.entity.detail} | ${r.kindLabel}`] : []));

  expect(titles('2065550137')).toEqual([]);
  i18next.addResourceBundle('en', 'voicemail', en, true, false);
  expect(titles('2065550137')).toEqual(['Voicemail from Jonas Berg, 2 min. ago | +12065550137 | Voicemail']);
  // Its translated keyword too.
  expect(titles('jonas unread')).toHaveLength(1);
});
