import i18next from 'i18next';
import uFuzzy from '@leeoniya/ufuzzy';
import { describe, expect, it, vi } from 'vitest';
import { allFeatures, definePlugin, Kernel, type PaletteEntity } from '../../src/kernel';
import { narrows, PaletteMatcher } from '../../src/palette/matcher';
import { nextMissingArg, PaletteIndex, type ListedEntity } from '../../src/palette/model';

async function setup() {
  const t = i18next.createInstance();
  await t.init({ lng: 'en', resources: { en: { p: { call: 'Call', missed: 'Show missed calls', off: 'Download history CSV', why: 'Not yet', people: 'Contacts', fr: 'Afficher les appels manqués' } } } });
  const contacts: PaletteEntity[] = [
    { id: 'people:1', label: 'Alice Martin', detail: '1001', actions: [{ command: 'p.call', args: { target: '1001' } }] },
    { id: 'people:2', label: 'Bob Stone', detail: '+1 212 555 0100', actions: [{ command: 'p.call', args: { target: '+12125550100' } }] },
  ];
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([
    definePlugin({
      id: 'p',
      titleKey: 'p',
      commands: [
        { id: 'p.call', titleKey: 'p:call', args: [{ name: 'target', titleKey: 'p:call', kind: 'choice', provider: 'people', allowFreeText: true, validate: (s) => (/^[\d+*#]+$/.test(s) ? null : 'p:why') }], run: () => undefined },
        { id: 'p.missed', titleKey: 'p:missed', keywords: ['overlooked'], run: () => undefined },
        { id: 'p.off', titleKey: 'p:off', enabled: () => ({ reasonKey: 'p:why' }), run: () => undefined },
        { id: 'p.secret', titleKey: 'p:missed', hiddenInPalette: true, run: () => undefined },
      ],
      searchProviders: [{ id: 'people', kindKey: 'p:people', items: () => contacts }],
    }),
  ]);
  return { kernel, t: t.t.bind(t), i18n: t };
}

describe('palette index', () => {
  it('an opening over the same entities array reuses the last opening\'s listing; a new array, or another language, is listed again', async () => {
    const t = i18next.createInstance();
    await t.init({ lng: 'en', resources: { en: { q: { kind: 'Rooms', room: 'Room {{n}}' } }, fr: { q: { kind: 'Salles', room: 'Salle {{n}}' } } } });
    const label = vi.fn((n: number) => ({ key: 'q:room', values: { n } }));
    let rooms: PaletteEntity[] = [1, 2].map((n) => ({ id: `room:${n}`, label: label(n), actions: [] }));
    const items = vi.fn(() => rooms);
    const kernel = new Kernel({ features: allFeatures(true), mac: false });
    kernel.load([definePlugin({ id: 'q', titleKey: 'q', searchProviders: [{ id: 'rooms', kindKey: 'q:kind', items }] })]);
    const en = t.getFixedT('en');
    const found = (index: PaletteIndex) => index.root('room 2', []).flatMap((r) => (r.kind === 'entity' ? [r.entity] : []));
    const first = found(new PaletteIndex(kernel, kernel.snapshot(), en, 'en'));
    expect(first.map((e) => e.label)).toEqual(['Room 2']);
    // The same array: the very entity objects of the last listing (nothing translated again).
    expect(found(new PaletteIndex(kernel, kernel.snapshot(), en, 'en'))[0]).toBe(first[0]);
    // Another language: listed again in it.
    expect(new PaletteIndex(kernel, kernel.snapshot(), t.getFixedT('fr'), 'fr').root('salle 2', []).flatMap((r) => (r.kind === 'entity' ? [r.entity.label] : []))).toEqual(['Salle 2']);
    // A new array (the provider's entities changed): listed again.
    rooms = [...rooms, { id: 'room:3', label: label(3), actions: [] }];
    const again = new PaletteIndex(kernel, kernel.snapshot(), en, 'en');
    expect(found(again)[0]).not.toBe(first[0]);
    expect(again.root('room 3', []).flatMap((r) => (r.kind === 'entity' ? [r.entity.label] : []))).toEqual(['Room 3']);
  });

  it('judges a command\'s enablement once for all the rows of an opening, and again after rejudge()', async () => {
    const t = i18next.createInstance();
    await t.init({ lng: 'en', resources: { en: { r: { ring: 'Ring the bell' } } } });
    let allowed = true;
    const enabled = vi.fn(() => allowed || { reasonKey: 'r:ring' });
    const kernel = new Kernel({ features: allFeatures(true), mac: false });
    kernel.load([definePlugin({ id: 'r', titleKey: 'r', commands: [{ id: 'r.ring', titleKey: 'r:ring', enabled, run: () => undefined }] })]);
    const index = new PaletteIndex(kernel, kernel.snapshot(), t.t.bind(t));
    for (const q of ['r', 'ri', 'rin', 'ring']) expect(index.root(q, [])[0]).toMatchObject({ key: 'cmd:r.ring', enablement: true });
    expect(enabled).toHaveBeenCalledTimes(1);
    allowed = false;
    index.rejudge();
    expect(index.root('ring', [])[0]).toMatchObject({ enablement: { reasonKey: 'r:ring' } });
    expect(enabled).toHaveBeenCalledTimes(2);
  });

  it('lists recent commands first on an empty query, then the rest A–Z, never hidden ones', async () => {
    const { kernel, t } = await setup();
    const rows = new PaletteIndex(kernel, kernel.snapshot(), t).root('', ['p.off']);
    expect(rows.map((r) => r.key)).toEqual(['cmd:p.off', 'cmd:p.call', 'cmd:p.missed']);
    expect(rows[0]).toMatchObject({ recent: true, enablement: { reasonKey: 'p:why' } });
  });

  it('a command acting on the selection is listed only on its screen, and stays an action of each item everywhere', async () => {
    const t = i18next.createInstance();
    await t.init({ lng: 'en', resources: { en: { v: { del: 'Delete message', vm: 'Voicemail' } } } });
    const message: ListedEntity = { id: 'vm:1', label: 'Bob', actions: [{ command: 'v.delete', args: { id: '1' } }] };
    const kernel = new Kernel({ features: allFeatures(true), mac: false });
    kernel.load([
      definePlugin({
        id: 'v',
        titleKey: 'v',
        commands: [{ id: 'v.delete', titleKey: 'v:del', hiddenInPalette: (c) => !c.route.startsWith('/voicemail'), run: () => undefined }],
        searchProviders: [{ id: 'vm', kindKey: 'v:vm', items: () => [message] }],
      }),
    ]);
    const on = (route: string) => new PaletteIndex(kernel, { ...kernel.snapshot(), route }, t.t.bind(t));
    expect(on('/voicemail').root('delete', []).map((r) => r.key)).toContain('cmd:v.delete');
    expect(on('/texts').root('delete', []).map((r) => r.key)).not.toContain('cmd:v.delete');
    expect(on('/texts').actionRows(message)).toMatchObject([{ kind: 'action', command: { id: 'v.delete' }, args: { id: '1' } }]);
  });

  it('"call bob" offers Call ▸ Bob Stone first, run with Bob as its argument; "call 1001" the number itself', async () => {
    const { kernel, t } = await setup();
    const index = new PaletteIndex(kernel, kernel.snapshot(), t);
    const bob = index.root('call bob', [])[0]!;
    expect(bob).toMatchObject({ kind: 'action', title: 'Call ▸ Bob Stone', command: { id: 'p.call' }, args: { target: { id: 'people:2' } } });
    const rows = index.root('call 1001', []);
    expect(rows[0]).toMatchObject({ kind: 'action', title: 'Call ▸ 1001', args: { target: '1001' } });
    expect(rows[1]).toMatchObject({ kind: 'action', title: 'Call ▸ Alice Martin' });
    // Free text the argument refuses is not offered; a title alone, or a word that only starts like one, is not a verb.
    expect(index.root('call zzz', []).filter((r) => r.kind === 'action')).toEqual([]);
    expect(index.root('call', [])[0]).toMatchObject({ kind: 'command', command: { id: 'p.call' } });
    expect(index.root('callbob', []).filter((r) => r.kind === 'action')).toEqual([]);
  });

  it('matches commands by title and keyword, entities by name and number, fuzzily', async () => {
    const { kernel, t } = await setup();
    const index = new PaletteIndex(kernel, kernel.snapshot(), t);
    expect(index.root('missd', [])[0]!.key).toBe('cmd:p.missed');
    expect(index.root('overlooked', [])[0]!.key).toBe('cmd:p.missed');
    expect(index.root('alice', [])[0]!.key).toBe('ent:people:1');
    expect(index.root('212 555', [])[0]!.key).toBe('ent:people:2');
  });

  it('labels follow the language at render time', async () => {
    const { kernel, i18n } = await setup();
    i18n.addResource('fr', 'p', 'missed', 'Afficher les appels manqués');
    await i18n.changeLanguage('fr');
    const rows = new PaletteIndex(kernel, kernel.snapshot(), i18n.t.bind(i18n)).root('manqués', []);
    expect(rows[0]).toMatchObject({ key: 'cmd:p.missed', title: 'Afficher les appels manqués' });
  });

  it('argument pages offer the provider entities plus validated free text', async () => {
    const { kernel, t } = await setup();
    const index = new PaletteIndex(kernel, kernel.snapshot(), t);
    const arg = kernel.commands.get('p.call')!.item.args![0]!;
    const rows = index.argRows(arg, 'bob');
    expect(rows[0]).toMatchObject({ kind: 'freeText', text: 'bob', error: 'Not yet' });
    expect(rows[1]).toMatchObject({ kind: 'option', option: { label: 'Bob Stone' } });
    expect(index.argRows(arg, '555')[0]).toMatchObject({ kind: 'freeText', error: null });
    expect(nextMissingArg(kernel.commands.get('p.call')!.item, {})).toBe(0);
    expect(nextMissingArg(kernel.commands.get('p.call')!.item, { target: '1' })).toBe(-1);
  });
});

describe('matcher at scale', () => {
  it('ranks a prefix match first among many hits', () => {
    const entries = Array.from({ length: 5000 }, (_, i) => ({ text: `Person ${i} Smith`, ref: i }));
    entries.push({ text: 'Smithers Waylon', ref: -1 });
    const m = new PaletteMatcher(entries);
    expect(m.search('smithers')[0]).toBe(-1);
    expect(m.search('s', 10)).toHaveLength(10);
  });
});

describe('matcher typed key by key', () => {
  // Each keystroke may test only the previous keystroke's hits (narrows): it must find exactly what
  // a search of everything finds, typos and short-term rules included.
  const FIRST = ['Alice', 'Abdul', 'Bob', 'Carol', 'Garcia', 'Gracia', 'Martin', 'Marin', 'Matrin', 'Smith', 'Smtih', 'Johnson', 'Jonhson', 'Lee', 'Leo'];
  const LAST = ['Martinez', 'Garcias', 'Acme', 'Acne', 'Smithers', 'Stone', 'Lees', 'Abdc', 'Abcd'];
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const pick = <T,>(a: readonly T[]) => a[Math.floor(rnd() * a.length)]!;
  const entries = Array.from({ length: 4000 }, (_, i) => ({ text: `${pick(FIRST)} ${pick(LAST)} +1 415 ${String(i).padStart(4, '0')}${rnd() < 0.3 ? ` ${pick(LAST)}co` : ''}`, ref: i }));
  const queries = ['martin garcia', 'matrin', 'smith acme', 'abcd', 'abdc', 'johnson', 'lee 415 01', 'alice', 'acne smithers', '415 5', 'garcias co', 'marinez', 'a1b2', 'leo"s', "lee's", 'ali-ce', 'gârcia', 'smithers alice', 'garcias martin', 'stone abdul 41'];
  it('finds what a fresh search finds, for every prefix of every query', () => {
    const typed = new PaletteMatcher(entries, { outOfOrderMaxTerms: 2 });
    for (const q of queries)
      for (let i = 1; i <= q.length; i++) expect(typed.search(q.slice(0, i), 100), q.slice(0, i)).toEqual(new PaletteMatcher(entries, { outOfOrderMaxTerms: 2 }).search(q.slice(0, i), 100));
  });
  it('finds what a fresh search finds when two searches interleave key by key, as "call le" and its verb\'s "le" do', () => {
    const typed = new PaletteMatcher(entries, { outOfOrderMaxTerms: 2 });
    const fresh = (q: string) => new PaletteMatcher(entries, { outOfOrderMaxTerms: 2 }).search(q, 100);
    for (const q of ['call lee', 'acme smith', 'smithers alice', 'martin garcias', 'stone 415 0']) {
      const verb = q.slice(q.indexOf(' ') + 1);
      for (let i = 1; i <= q.length; i++) {
        expect(typed.search(q.slice(0, i), 100), q.slice(0, i)).toEqual(fresh(q.slice(0, i)));
        if (i > q.length - verb.length) expect(typed.search(verb.slice(0, i - (q.length - verb.length)), 100)).toEqual(fresh(verb.slice(0, i - (q.length - verb.length))));
      }
    }
    // A later matcher over the same texts starts from these hits, and still finds the same.
    const again = new PaletteMatcher(entries.map((e) => ({ ...e })), { outOfOrderMaxTerms: 2, like: typed });
    for (const q of ['ma', 'mar', 'martin', 'martin g', 'martin gar', 'lees smith', 'call le']) expect(again.search(q, 100), q).toEqual(fresh(q));
  });

  it('finds terms typed out of order key by key ("smith ali" finds Alice Smith), from the previous keys\' any-order hits', () => {
    const people = Array.from({ length: 300 }, (_, i) => ({ text: `${['Alice', 'Bob', 'Carol'][i % 3]} ${['Smith', 'Stone'][i % 2]} +1 415 ${1000 + i}`, ref: i }));
    const typed = new PaletteMatcher(people, { outOfOrderMaxTerms: 2 });
    for (const q of ['smith a', 'smith al', 'smith ali', 'smith alic', 'stone bo', 'stone bob']) {
      expect(typed.search(q, 100), q).toEqual(new PaletteMatcher(people, { outOfOrderMaxTerms: 2 }).search(q, 100));
      expect(typed.search(q, 100).length, q).toBeGreaterThan(0);
    }
  });

  it('narrows only where uFuzzy cannot find more for the longer needle', () => {
    expect(narrows('martin', 'martin g')).toBe(true);
    expect(narrows('smith', 'smithe')).toBe(true);
    expect(narrows('41', '415')).toBe(true);
    expect(narrows('a', 'ab')).toBe(true);
    // "abc" allows a swap, "abcd" also an insertion: "abdc" is found by the second only.
    expect(narrows('abc', 'abcd')).toBe(false);
    expect(narrows('ab', 'abc')).toBe(false);
    expect(narrows('abcd', 'abcde')).toBe(false);
    expect(narrows('smith', 'smit')).toBe(false);
    expect(narrows('lee', "lee'")).toBe(false);
  });
});

describe('matcher over the same entities again', () => {
  it('reuses the prepared text of the last matcher when the texts are the same, and finds the same', () => {
    const entries = Array.from({ length: 3000 }, (_, i) => ({ text: `Zoë Müller ${i} Ångström`, ref: i }));
    const first = new PaletteMatcher(entries);
    const latinize = vi.spyOn(uFuzzy, 'latinize');
    try {
      const again = new PaletteMatcher(entries.map((e) => ({ ...e })), { like: first });
      expect(latinize).not.toHaveBeenCalled();
      for (const q of ['zoe', 'muller 12', 'angstrom 299', 'Zoë', 'x']) expect(again.search(q, 50)).toEqual(first.search(q, 50));
      new PaletteMatcher([...entries.slice(1), { text: 'Other', ref: -1 }], { like: first });
      expect(latinize).toHaveBeenCalledTimes(1);
    } finally {
      latinize.mockRestore();
    }
  });
});

describe('matcher term order', () => {
  it('finds a command when the words are typed out of order', () => {
    const m = new PaletteMatcher([
      { text: 'Show missed calls history', ref: 'missed' },
      { text: 'Download history CSV', ref: 'csv' },
    ]);
    expect(m.search('missed show')[0]).toBe('missed');
    expect(m.search('csv download')).toEqual(['csv']);
  });
});

describe('matcher scripts and accents', () => {
  const m = new PaletteMatcher([
    { text: 'Mateo García 1006', ref: 'mateo' },
    { text: 'Hana Nováková 1038', ref: 'hana' },
    { text: 'Показать пропущенные вызовы', ref: 'missed-ru' },
    { text: 'العربية ar', ref: 'ar' },
    { text: 'हिन्दी hi', ref: 'hi' },
    { text: '日本語 ja', ref: 'ja' },
    { text: 'Ελληνικά el', ref: 'el' },
  ]);

  it('finds names and commands in every script the product speaks', () => {
    expect(m.search('пропущ')).toEqual(['missed-ru']);
    expect(m.search('العربية')).toEqual(['ar']);
    expect(m.search('हिन्दी')).toEqual(['hi']);
    expect(m.search('日本')).toEqual(['ja']);
    expect(m.search('ελλη')).toEqual(['el']);
  });

  it('matches accented names with or without the accents typed', () => {
    expect(m.search('garcia')).toEqual(['mateo']);
    expect(m.search('garcía')).toEqual(['mateo']);
    expect(m.search('novakova 1038')).toEqual(['hana']);
  });
});

describe('entities with words from strings not loaded yet', () => {
  it('are left out until their strings are in, then listed translated, with translated keywords', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: { en: { p: { vm: 'Voicemail' } } }, interpolation: { escapeValue: false } });
    const entity: PaletteEntity = { id: 'vm:1', label: { key: 'v:entity', values: { name: 'Jonas Berg' } }, detail: '+12065550137', keywords: [{ key: 'v:unread' }], actions: [] };
    const kernel = new Kernel({ features: allFeatures(true), mac: false });
    kernel.load([definePlugin({ id: 'v', titleKey: 'p:vm', searchProviders: [{ id: 'vm', kindKey: 'p:vm', items: () => [entity] }] })]);
    const index = () => new PaletteIndex(kernel, kernel.snapshot(), i18n.t.bind(i18n));
    expect(index().root('2065550137', [])).toEqual([]);
    expect(index().waiting).toBe(1);
    i18n.addResourceBundle('en', 'v', { entity: 'Voicemail from {{name}}', unread: 'Unread' });
    expect(index().waiting).toBe(0);
    expect(index().root('2065550137', [])).toMatchObject([{ kind: 'entity', entity: { label: 'Voicemail from Jonas Berg' }, kindLabel: 'Voicemail' }]);
    expect(index().root('jonas unread', [])).toHaveLength(1);
  });
});

describe('commands with the same title', () => {
  async function twoMarkAllRead() {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: { en: { v: { title: 'Voicemail', read: 'Mark all read', go: 'Go to voicemail' }, c: { title: 'Chat', read: 'Mark all read', msg: 'Message' } } } });
    const kernel = new Kernel({ features: allFeatures(true), mac: false });
    kernel.load([
      definePlugin({ id: 'v', titleKey: 'v:title', commands: [{ id: 'v.read', titleKey: 'v:read', run: () => undefined }, { id: 'v.go', titleKey: 'v:go', run: () => undefined }] }),
      definePlugin({
        id: 'c',
        titleKey: 'c:title',
        commands: [
          { id: 'c.read', titleKey: 'c:read', run: () => undefined },
          { id: 'c.msg', titleKey: 'c:msg', args: [{ name: 'to', titleKey: 'c:msg', kind: 'text' }], run: () => undefined },
        ],
        searchProviders: [{ id: 'people', kindKey: 'c:title', items: () => [{ id: 'people:1', label: 'Alice', actions: [{ command: 'c.read' }, { command: 'v.read' }] }] }],
      }),
    ]);
    return new PaletteIndex(kernel, kernel.snapshot(), i18n.t.bind(i18n));
  }

  it('each say their area, in search results, the full list and recent commands; others do not', async () => {
    const index = await twoMarkAllRead();
    const areas = (rows: ReturnType<typeof index.root>) => rows.flatMap((r) => (r.kind === 'command' || r.kind === 'action' ? [[r.title, r.area ?? null]] : []));
    expect(areas(index.root('mark read', []))).toEqual([
      ['Mark all read', 'Voicemail'],
      ['Mark all read', 'Chat'],
    ]);
    expect(areas(index.root('', ['c.read']))).toEqual([
      ['Mark all read', 'Chat'],
      ['Go to voicemail', null],
      ['Mark all read', 'Voicemail'],
      ['Message', null],
    ]);
  });

  it('each say their area among an entity’s actions', async () => {
    const index = await twoMarkAllRead();
    const alice = index.root('alice', []).find((r) => r.kind === 'entity')!;
    expect(alice.kind === 'entity' && index.actionRows(alice.entity).map((r) => r.kind === 'action' && r.area)).toEqual(['Chat', 'Voicemail']);
  });
});

describe('a query a command takes whole', () => {
  it('"#12" offers Call ▸ #12 first and no entity that merely contains 12', async () => {
    const { kernel, t } = await setup();
    kernel.load([
      definePlugin({
        id: 'tel',
        titleKey: 'p:call',
        commands: [{ id: 'tel.call', titleKey: 'p:call', takesQuery: /^#\d+$/, args: [{ name: 'target', titleKey: 'p:call', kind: 'choice', allowFreeText: true }], run: () => undefined }],
        searchProviders: [{ id: 'numbers', kindKey: 'p:people', items: () => [{ id: 'numbers:1', label: 'Carol', detail: '+1 206 555 0112', actions: [] }] }],
      }),
    ]);
    const index = new PaletteIndex(kernel, kernel.snapshot(), t);
    expect(index.root('12', []).some((r) => r.kind === 'entity')).toBe(true);
    const rows = index.root(' #12 ', []);
    expect(rows).toMatchObject([{ kind: 'action', title: 'Call ▸ #12', command: { id: 'tel.call' }, args: { target: '#12' } }]);
    // Not a shortcut: searched as before.
    expect(index.root('#12a', []).some((r) => r.kind === 'action' && r.title === 'Call ▸ #12a')).toBe(false);
  });

  it('"#12" names the entity that stands for it ("Call ▸ #12 · Alice Nguyen (Contacts)"), and still passes what was typed', async () => {
    const { kernel, t } = await setup();
    const dials: PaletteEntity[] = [{ id: 'dials:12', label: '#12 · Alice Nguyen', standsFor: '#12', actions: [] }];
    kernel.load([
      definePlugin({
        id: 'tel',
        titleKey: 'p:call',
        commands: [{ id: 'tel.call', titleKey: 'p:call', takesQuery: /^#\d+$/, args: [{ name: 'target', titleKey: 'p:call', kind: 'choice', allowFreeText: true }], run: () => undefined }],
        searchProviders: [{ id: 'dials', kindKey: 'p:people', items: () => dials }],
      }),
    ]);
    const index = new PaletteIndex(kernel, kernel.snapshot(), t);
    expect(index.root('#12', [])).toMatchObject([{ kind: 'action', title: 'Call ▸ #12 · Alice Nguyen (Contacts)', args: { target: '#12' } }]);
    // No entity stands for #13: the row says only what was typed.
    expect(index.root('#13', [])).toMatchObject([{ kind: 'action', title: 'Call ▸ #13', args: { target: '#13' } }]);
  });
});
