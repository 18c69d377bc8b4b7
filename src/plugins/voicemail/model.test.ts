import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Api, Dialogs, Navigation, Notifications, Preferences, Session, type ServiceLookup, ApiError } from '../../kernel';
import { voicemailFileName } from '../../wire/voicemail';
import { deleteVoicemails, expandTranscript, onVoicemailPush, refresh, setRead } from './api';
import { clock, durationParts, filterVoicemails, formatDuration, formatTimestamp, fromV1, fromV2, needsTranscriptFetch, narrowsTerm, parseGroup, rateLimited, timestampKind, voicemailSearch } from './model';
import { player } from './player';
import { vmState, type Voicemail } from './state';

const vm = (over: Partial<Voicemail> = {}): Voicemail => ({
  id: '1',
  status: 'UNREAD',
  callerNumber: '+14155550116',
  callerName: 'Jonas Berg',
  durationSeconds: 42,
  timestamp: '2026-03-20T14:00:00.000Z',
  transcriptState: 'Succeeded',
  transcript: 'Please call me back',
  ...over,
});

describe('voicemail model', () => {
  it('v1: a Succeeded transcript with empty text counts as Failed; v2 keeps a null text to fetch', () => {
    const base = { vm_id: 7, vmb_id: 1001, status: 'UNREAD' as const, caller_number: '1002', caller_name: 'Bob', duration: 5, vm_timestamp: '2026-03-20T14:00:00Z' };
    expect(fromV1({ ...base, vm_text: '', vm_text_state: 'Succeeded' })).toMatchObject({ id: '7', transcriptState: 'Failed', transcript: null });
    expect(fromV1({ ...base, vm_text: '  ', vm_text_state: 'Succeeded' }).transcriptState).toBe('Failed');
    expect(fromV1({ ...base, vm_text: 'Hi', vm_text_state: 'Succeeded' })).toMatchObject({ transcriptState: 'Succeeded', transcript: 'Hi', timestamp: '2026-03-20T14:00:00.000Z' });
    const v2 = fromV2({ msg_id: '7', caller_id_name: null, caller_id_number: '1002', origtime: 1774015200, mailbox: '1001', status: 'Read', duration: 5, transcription: { state: 'Succeeded', text: null } });
    expect(v2).toMatchObject({ status: 'READ', callerName: null, transcript: null, timestamp: new Date(1774015200_000).toISOString() });
    expect(needsTranscriptFetch(v2, 2)).toBe(true);
    expect(needsTranscriptFetch(v2, 1)).toBe(false);
    expect(needsTranscriptFetch({ ...v2, transcriptState: 'In Progress' }, 2)).toBe(false);
  });

  it('group filter (default ALL) and search by name, digits or transcript words', () => {
    const items = [vm({ id: '1' }), vm({ id: '2', status: 'READ', callerName: 'Contoso', callerNumber: '+13125550178', transcript: 'invoice for March' })];
    expect(parseGroup(null)).toBe('ALL');
    expect(parseGroup('READ')).toBe('READ');
    expect(parseGroup('bogus')).toBe('ALL');
    expect(filterVoicemails(items, 'UNREAD', '').map((v) => v.id)).toEqual(['1']);
    expect(filterVoicemails(items, 'READ', '').map((v) => v.id)).toEqual(['2']);
    expect(filterVoicemails(items, 'ALL', 'jonas').map((v) => v.id)).toEqual(['1']);
    expect(filterVoicemails(items, 'ALL', '(312) 555').map((v) => v.id)).toEqual(['2']);
    expect(filterVoicemails(items, 'ALL', 'INVOICE').map((v) => v.id)).toEqual(['2']);
  });

  it('typed key by key, each term finds what a search of every message finds', () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      vm({ id: String(i), status: i % 2 ? 'READ' : 'UNREAD', callerName: i % 3 ? `Grace ${i}` : null, callerNumber: `+1 (212) 555-${String(i).padStart(4, '0')}`, transcript: i % 5 ? `invoice ${i} from contoso` : null }),
    );
    const search = voicemailSearch();
    for (const group of ['ALL', 'UNREAD'] as const)
      for (const term of ['grace 12', '212 555', '(2', 'a1', 'invoice 1', 'contoso', 'x', 'co'])
        for (let i = 0; i <= term.length; i++) expect(search(many, group, term.slice(0, i))).toEqual(filterVoicemails(many, group, term.slice(0, i)));
    expect(narrowsTerm('gra', 'grac')).toBe(true);
    // "a" matched no digits; "a1" finds every number with a 1.
    expect(narrowsTerm('a', 'a1')).toBe(false);
  });

  it('refreshes at most once per 3000 ms', () => {
    let t = 0;
    const run = vi.fn();
    const tick = rateLimited(run, 3000, () => t);
    expect(tick()).toBe(true);
    t = 2999;
    expect(tick()).toBe(false);
    t = 3000;
    expect(tick()).toBe(true);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('timestamps: time under a day, Yesterday, weekday under 9 days, else the date', () => {
    const now = new Date(2026, 2, 20, 15, 0);
    const at = (d: number, h: number) => new Date(2026, 2, d, h, 0).toISOString();
    expect(timestampKind(at(20, 9), now)).toBe('time');
    expect(timestampKind(at(19, 16), now)).toBe('time');
    expect(timestampKind(at(19, 10), now)).toBe('yesterday');
    expect(timestampKind(at(15, 10), now)).toBe('weekday');
    expect(timestampKind(at(11, 16), now)).toBe('weekday');
    expect(timestampKind(at(11, 14), now)).toBe('date');
  });

  // Each visible row formats its time and duration on every keystroke of the search: making the
  // Intl formatter, not using it, is what cost (tens of milliseconds per keystroke at 10,000 messages).
  it('formats rows with formatters made once per locale and style', () => {
    const now = new Date(2026, 2, 20, 15, 0);
    const { DateTimeFormat, NumberFormat } = Intl;
    let made = 0;
    Intl.DateTimeFormat = class extends DateTimeFormat {
      constructor(...a: ConstructorParameters<typeof DateTimeFormat>) {
        super(...a);
        made++;
      }
    } as typeof DateTimeFormat;
    Intl.NumberFormat = class extends NumberFormat {
      constructor(...a: ConstructorParameters<typeof NumberFormat>) {
        super(...a);
        made++;
      }
    } as typeof NumberFormat;
    try {
      const first = [formatTimestamp(new Date(2026, 2, 20, 9, 5).toISOString(), now, 'fi', 'eilen'), formatDuration(42, 'fi'), formatDuration(600, 'fi')];
      const before = made;
      for (let i = 0; i < 50; i++) {
        formatTimestamp(new Date(2026, 2, 20, 9, i).toISOString(), now, 'fi', 'eilen');
        formatDuration(i, 'fi');
        formatDuration(600 + i, 'fi');
      }
      expect(made).toBe(before);
      expect(first).toEqual([
        new DateTimeFormat('fi', { timeStyle: 'short' }).format(new Date(2026, 2, 20, 9, 5)),
        new NumberFormat('fi', { style: 'unit', unit: 'second', unitDisplay: 'short' }).format(42),
        new NumberFormat('fi', { style: 'unit', unit: 'minute', unitDisplay: 'short' }).format(10),
      ]);
    } finally {
      Object.assign(Intl, { DateTimeFormat, NumberFormat });
    }
  });

  it('durations: seconds under a minute, otherwise rounded minutes', () => {
    expect(durationParts(59)).toEqual({ value: 59, unit: 'second' });
    expect(durationParts(60)).toEqual({ value: 1, unit: 'minute' });
    expect(durationParts(89)).toEqual({ value: 1, unit: 'minute' });
    expect(durationParts(90)).toEqual({ value: 2, unit: 'minute' });
    expect(formatDuration(42, 'en')).toBe('42 sec');
    expect(clock(75)).toBe('1:15');
  });

  it('download file names come from the timestamp and the caller number, .wav', () => {
    expect(voicemailFileName(new Date('2026-03-20T14:12:00Z'), '+1 (415) 555-0116')).toBe('voicemail-20260320-1412-14155550116.wav');
    expect(voicemailFileName(new Date('2026-03-20T14:12:00Z'), '')).toBe('voicemail-20260320-1412-unknown.wav');
  });
});

/** Just the services these rules use, with a fake API. */
function services(api: Record<string, ReturnType<typeof vi.fn>>, opts: { skipConfirm?: boolean; confirm?: { confirmed: boolean; remember: boolean } } = {}) {
  const prefs = { get: vi.fn(async () => (opts.skipConfirm ? true : false)), set: vi.fn(async () => undefined) };
  const dialogs = { confirm: vi.fn(async () => opts.confirm ?? { confirmed: true, remember: false }) };
  const notify = { toast: vi.fn(), announce: vi.fn(), dismiss: vi.fn() };
  const map = new Map<unknown, unknown>([
    [Api, api],
    [Preferences, prefs],
    [Dialogs, dialogs],
    [Notifications, notify],
    [Session, { userId: 5 }],
  ]);
  const s: ServiceLookup = { get: (k) => map.get(k) as never, maybe: (k) => map.get(k) as never, has: (k) => map.has(k) };
  return { s, prefs, dialogs, notify };
}

describe('voicemail rules', () => {
  beforeEach(() => {
    Object.assign(vmState, { items: [vm({ id: '1' }), vm({ id: '2', status: 'READ' })], generation: 2, checked: [], expanded: [], selectedId: null });
  });
  afterEach(() => player.reset());

  it('marking read is optimistic and reverts when the call fails', async () => {
    const post = vi.fn(async () => {
      throw new ApiError(500, { error: 'x', message: 'boom' });
    });
    const { s } = services({ post });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const done = setRead(s, ['1'], true);
    expect(vmState.items![0]!.status).toBe('READ');
    await done;
    expect(post).toHaveBeenCalledWith('/v2/voicemail/1/old', undefined);
    expect(vmState.items![0]!.status).toBe('UNREAD');
    errors.mockRestore();
  });

  it('v1 marks with PUT …/status', async () => {
    vmState.generation = 1;
    const put = vi.fn(async () => undefined);
    await setRead(services({ put }).s, ['2'], false);
    expect(put).toHaveBeenCalledWith('/v1/voice-messages/2/status', { status: 'UNREAD' });
    expect(vmState.items![1]!.status).toBe('UNREAD');
  });

  it('expanding the transcript marks read and fetches a v2 text; a failed fetch sets Failed', async () => {
    vmState.items = [vm({ id: '1', transcript: null }), vm({ id: '2', transcript: null })];
    const get = vi.fn(async (path: string) => {
      if (path.endsWith('/1/transcription')) return { state: 'Succeeded', text: 'Hello there' };
      throw new Error('offline');
    });
    const post = vi.fn(async () => undefined);
    const { s } = services({ get, post });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expandTranscript(s, '1', true);
    expect(vmState.items![0]).toMatchObject({ status: 'READ', transcript: 'Hello there' });
    expect(post).toHaveBeenCalledWith('/v2/voicemail/1/old', undefined);
    await expandTranscript(s, '2', true);
    expect(vmState.items![1]!.transcriptState).toBe('Failed');
    expect(vmState.expanded).toEqual(['1', '2']);
    errors.mockRestore();
  });

  it('asks before deleting, remembers "don\'t ask again", and skips the question once remembered', async () => {
    const del = vi.fn(async () => undefined);
    const first = services({ delete: del }, { confirm: { confirmed: true, remember: true } });
    expect(await deleteVoicemails(first.s, ['1'])).toBe(true);
    expect(first.dialogs.confirm).toHaveBeenCalledTimes(1);
    expect(first.prefs.set).toHaveBeenCalledWith('voicemail-delete-confirm-modal', true);
    expect(vmState.items!.map((v) => v.id)).toEqual(['2']);

    const second = services({ delete: del }, { skipConfirm: true });
    expect(await deleteVoicemails(second.s, ['2'])).toBe(true);
    expect(second.dialogs.confirm).not.toHaveBeenCalled();
    expect(vmState.items).toEqual([]);
  });

  it('a cancelled confirmation deletes nothing; a failed delete shows SERVICE_VOICEMAIL.DELETE_ERROR_TITLE', async () => {
    const del = vi.fn(async () => {
      throw new ApiError(500, { error: 'x', message: 'Server said no' });
    });
    const cancelled = services({ delete: del }, { confirm: { confirmed: false, remember: false } });
    expect(await deleteVoicemails(cancelled.s, ['1'])).toBe(false);
    expect(del).not.toHaveBeenCalled();
    const failing = services({ delete: del, get: vi.fn(async () => ({ voicemails: [] })) }, { skipConfirm: true });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await deleteVoicemails(failing.s, ['1'])).toBe(false);
    expect(failing.notify.toast).toHaveBeenCalledWith(expect.objectContaining({ tone: 'error', titleKey: 'voicemail:SERVICE_VOICEMAIL.DELETE_ERROR_TITLE' }));
    errors.mockRestore();
  });

  it('v2 bulk delete is one call per message; v1 deletes several in one call', async () => {
    const del = vi.fn(async () => undefined);
    await deleteVoicemails(services({ delete: del }, { skipConfirm: true }).s, ['1', '2']);
    expect(del.mock.calls).toEqual([['/v2/voicemail/1'], ['/v2/voicemail/2']]);
    vmState.generation = 1;
    vmState.items = [vm({ id: '3' }), vm({ id: '4' })];
    const request = vi.fn(async () => undefined);
    await deleteVoicemails(services({ request }, { skipConfirm: true }).s, ['3', '4']);
    expect(request).toHaveBeenCalledWith('DELETE', '/v1/voice-messages', { body: { messages: [3, 4] } });
  });

  it('deleting the playing message resets playback', async () => {
    Object.assign(vmState.player, { id: '1', audio: 'ready', playing: true, position: 12 });
    await deleteVoicemails(services({ delete: vi.fn(async () => undefined) }, { skipConfirm: true }).s, ['1']);
    expect(vmState.player).toMatchObject({ id: null, audio: 'idle', playing: false, position: 0 });
  });
});

describe('a new voicemail', () => {
  const wire = (id: string, status: 'Unread' | 'Read' = 'Unread') => ({ msg_id: id, caller_id_name: id === '9' ? 'Grace Whitfield' : null, caller_id_number: '1002', origtime: 1774015200, mailbox: '1001', status, duration: 5, transcription: { state: 'None', text: null } });
  const shown: { title: string; tag: string }[] = [];
  class FakeNotification {
    static permission = 'granted';
    onclick: (() => void) | null = null;
    constructor(title: string, opts: { tag: string }) {
      shown.push({ title, tag: opts.tag });
    }
    close() {}
  }
  beforeEach(() => {
    shown.length = 0;
    vi.stubGlobal('Notification', FakeNotification);
    Object.assign(vmState, { items: null, generation: 2, checked: [], expanded: [], selectedId: null });
  });
  afterEach(() => vi.unstubAllGlobals());

  function mailbox(off: string[] = []) {
    let listed = [wire('1'), wire('2', 'Read')];
    const get = vi.fn(async () => ({ voicemails: listed }));
    const { s } = services({ get });
    const map = new Map<unknown, unknown>([[Preferences, { get: vi.fn(async () => off), set: vi.fn() }], [Navigation, { navigate: vi.fn() }]]);
    const withPrefs: ServiceLookup = { get: (k) => (map.get(k) ?? s.get(k)) as never, maybe: (k) => (map.get(k) ?? s.maybe(k)) as never, has: (k) => map.has(k) || s.has(k) };
    return { s: withPrefs, arrive: (...w: ReturnType<typeof wire>[]) => (listed = [...w, ...listed]) };
  }

  it('one that arrives between two reads is a desktop notice; what was there at sign-in is not', async () => {
    const { s, arrive } = mailbox();
    await refresh(s);
    expect(shown).toEqual([]);
    arrive(wire('9'), wire('8', 'Read'));
    await refresh(s);
    expect(shown).toEqual([{ title: 'voicemail:notice.title', tag: 'voicemail:9' }]);
    await refresh(s);
    expect(shown).toHaveLength(1);
  });

  it('none when voicemail notices are switched off in the preferences', async () => {
    const { s, arrive } = mailbox(['voicemail']);
    await refresh(s);
    await vi.waitFor(() => Promise.resolve());
    arrive(wire('9'));
    await refresh(s);
    expect(shown).toEqual([]);
  });

  it("the server's push (vm_id, caller_name) is told at once, opens the message when clicked, and the next read does not tell it again", async () => {
    const { s, arrive } = mailbox();
    await refresh(s);
    arrive(wire('9'));
    onVoicemailPush(s, JSON.stringify({ vm_id: '9', caller_name: 'Grace Whitfield' }));
    expect(shown).toEqual([{ title: 'voicemail:notice.title', tag: 'voicemail:9' }]);
    await vi.waitFor(() => expect(vmState.items?.some((v) => v.id === '9')).toBe(true));
    await refresh(s);
    expect(shown).toHaveLength(1);
    onVoicemailPush(s, 'not json');
    onVoicemailPush(s, JSON.stringify({ vm_id: 9 }));
    expect(shown).toHaveLength(1);
  });
});
