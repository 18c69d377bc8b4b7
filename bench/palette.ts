import { defaultFilter } from 'cmdk';
import i18next from 'i18next';
import { allFeatures, definePlugin, Kernel, type PaletteEntity, type PluginManifest } from '../src/kernel';
import { PaletteIndex } from '../src/palette/model';
import { percentile, round1 } from './measure';

const FIRST = ['Alice', 'Bob', 'Carol', 'Dmitri', 'Elif', 'Farah', 'Giulia', 'Hiroshi', 'Ines', 'Jonas', 'Kwame', 'Lena', 'Mateo', 'Nadia', 'Oskar', 'Priya', 'Quentin', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Viktor', 'Wen', 'Ximena', 'Yusuf', 'Zoe'];
const LAST = ['Martin', 'Stone', 'Okafor', 'Ivanova', 'Yilmaz', 'Haddad', 'Rossi', 'Tanaka', 'Garcia', 'Berg', 'Mensah', 'Schulz', 'Lopez', 'Karimi', 'Nilsson', 'Patel', 'Dubois', 'Silva', 'Larsen', 'Aziz', 'Rao', 'Novak', 'Chen', 'Reyes', 'Demir', 'Walker'];
const COMPANY = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Hooli', 'Vandelay', 'Soylent', 'Tyrell'];

/** 50,000 synthetic contacts, deterministic. */
export function syntheticContacts(n: number): PaletteEntity[] {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const name = `${pick(FIRST)} ${pick(LAST)}`;
    const phone = `+1 ${200 + Math.floor(rnd() * 700)} 555 ${String(Math.floor(rnd() * 10000)).padStart(4, '0')}`;
    const company = pick(COMPANY);
    return { id: `contacts:${i}`, label: name, detail: `${phone} · ${company}`, keywords: [`${name.toLowerCase().replace(' ', '.')}@${company.toLowerCase()}.com`], actions: [{ command: 'bench.call', args: { target: phone } }] };
  });
}

const QUERIES = ['alice martin', 'call alice martin', 'show missed calls', 'download history', '212 555', 'rosa silva globex', 'keyboard shortcuts', 'zoe walker', 'chen', 'lang', '#12'];

export async function benchPalette(plugins: readonly PluginManifest[]): Promise<Record<string, number>> {
  const t = i18next.createInstance();
  // The palette lists a provider's entities once its kind has a string, as in the product.
  await t.init({ lng: 'en', resources: { en: { bench: { call: 'Call', number: 'Number', contacts: 'Contacts' } } } });
  const contacts = syntheticContacts(50_000);
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([
    ...plugins,
    definePlugin({
      id: 'bench',
      titleKey: 'bench',
      // As telephony's "Call ▸": contacts or a typed number, so "call alice martin" goes through the verb rows too.
      commands: [{ id: 'bench.call', titleKey: 'bench:call', takesQuery: /^#\d+$/, args: [{ name: 'target', titleKey: 'bench:number', kind: 'choice', provider: 'bench.contacts', allowFreeText: true, validate: (s) => (/^[\d+*#]+$/.test(s) ? null : 'x') }], run: () => undefined }],
      searchProviders: [{ id: 'bench.contacts', kindKey: 'bench:contacts', items: () => contacts }],
    }),
  ]);
  const buildStart = performance.now();
  const index = new PaletteIndex(kernel, kernel.snapshot(), t.t.bind(t));
  const buildMs = performance.now() - buildStart;

  // Every keystroke of every query: the time from the new query to the rows the list renders.
  const ours: number[] = [];
  for (let round = 0; round < 3; round++)
    for (const q of QUERIES)
      for (let i = 1; i <= q.length; i++) {
        const s = performance.now();
        index.root(q.slice(0, i), []);
        ours.push(performance.now() - s);
      }

  // cmdk's own filtering on the same items: score every item with its scorer, keep and sort the hits.
  const items = [...index.commandMatcher.entries, ...index.entityMatcher.entries].map((e) => e.text);
  const cmdkTimes: number[] = [];
  const oursSame: number[] = [];
  // Plain matching only: "call alice martin" also builds verb rows (Call ▸ …), work cmdk does not do,
  // and "#12" is a speed-dial shortcut, not a search.
  for (const q of QUERIES.filter((x) => !x.startsWith('call ') && !x.startsWith('#'))) {
    let s = performance.now();
    const scored: Array<[number, number]> = [];
    for (let i = 0; i < items.length; i++) {
      const score = defaultFilter(items[i]!, q);
      if (score > 0) scored.push([score, i]);
    }
    scored.sort((a, b) => b[0] - a[0]);
    cmdkTimes.push(performance.now() - s);
    s = performance.now();
    index.root(q, []);
    oursSame.push(performance.now() - s);
  }
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  return {
    palette_index_build_ms: round1(buildMs),
    palette_query_p50_ms: round1(percentile(ours, 50)),
    palette_query_p95_ms: round1(percentile(ours, 95)),
    palette_vs_cmdk_ratio: round1(sum(cmdkTimes) / sum(oursSame)),
  };
}
