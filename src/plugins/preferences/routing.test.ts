import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../kernel';
import { DESTINATION_TYPES } from '../../wire/calling';
import { DEFAULT_FIND_ME, findMeProblems, NO_ROUTE, ROUTE_PROBLEM_MESSAGES, UNAVAILABLE_DESTINATION_REASONS, type DestinationTypeInfo, type InboundRoute } from '../../wire/inbound';
import { withWindowZone } from './api';
import { describeRoute, fieldProblems, fieldsFor, findMeSentence, fromDraft, move, routeSentence, saveFailure, toDraft, withDrop } from './routing';
import en from './strings/en.json';

const i18n = i18next.createInstance();
beforeAll(() => i18n.init({ lng: 'en', resources: { en: { preferences: en } }, defaultNS: 'preferences', interpolation: { escapeValue: false } }));
const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, values);

const SELF = '25';
const TYPES: DestinationTypeInfo[] = DESTINATION_TYPES.map((type) => {
  const reason = (UNAVAILABLE_DESTINATION_REASONS as Record<string, string | undefined>)[type] ?? null;
  const options =
    type === 'box'
      ? [{ value: SELF, name: 'Thabo Nkosi', number: '1025' }, { value: '4', name: 'Carol Okafor', number: '1003' }]
      : type === 'ext'
        ? [{ value: '4', name: 'Carol Okafor', number: '1003' }]
        : type === 'group'
          ? [{ value: '1', name: 'Sales', number: null }]
          : null;
  return { type, available: reason === null, reason, options };
});
const route = (drop: InboundRoute['drop'], value: string | null = null, phoneTime: number | null = null): InboundRoute => ({ drop, value, phoneTime });

describe('the summary sentence of a rule', () => {
  it.each([
    ['routeBusy', route('box', SELF), "When you're busy: voicemail (yours)"],
    ['routeBusy', route('box', '4'), "When you're busy: voicemail of Carol Okafor (1003)"],
    ['routeNoAnswer', route('ext', '4'), "When you don't answer: ring Carol Okafor (1003)"],
    ['routeNoAnswer', route('ext'), "When you don't answer: Colleague, not chosen yet"],
    ['routeOffline', route('group', '1'), "When you're offline: ring the group Sales"],
    ['routeAlways', route('phone', '+14155550142', 15), 'All calls: ring +14155550142 for 15 seconds'],
    ['routeAlways', route('outside', '+14155550142'), 'All calls: forward to +14155550142'],
    ['routeAlways', route('phone', '  '), 'All calls: Phone number, not chosen yet'],
    ['routeBusy', route('busy'), "When you're busy: busy tone"],
    ['routeNoAnswer', route('findme'), "When you don't answer: your find-me list"],
    ['routeOffline', route('repeat_greeting'), "When you're offline: your greeting again, then hang up"],
    ['routeBusy', NO_ROUTE, "When you're busy: not set"],
    // A row saved before the type became unavailable still says what it is, and that it does nothing here.
    ['routeBusy', route('queue'), "When you're busy: Call queue (not available here)"],
    ['simultaneous_next_step', route('box', SELF), 'When nobody answers: voicemail (yours)'],
  ] as const)('%s %j', (slot, r, sentence) => {
    expect(routeSentence(slot, r, TYPES, SELF, t)).toBe(sentence);
  });

  it('names every destination type and every unavailable reason in English as the server does', () => {
    for (const type of DESTINATION_TYPES) expect(i18n.exists(`calling.types.${type}`), type).toBe(true);
    for (const [type, reason] of Object.entries(UNAVAILABLE_DESTINATION_REASONS)) expect(t(`calling.unavailable.${type}`)).toBe(reason);
    for (const [problem, text] of Object.entries(ROUTE_PROBLEM_MESSAGES)) expect(t(`calling.problems.${problem}`)).toBe(text);
  });
});

describe('the fields each destination type needs', () => {
  it.each([
    ['box', { list: true, number: false, ringTime: false }],
    ['ext', { list: true, number: false, ringTime: false }],
    ['group', { list: true, number: false, ringTime: false }],
    ['phone', { list: false, number: true, ringTime: true }],
    ['outside', { list: false, number: true, ringTime: false }],
    ['busy', { list: false, number: false, ringTime: false }],
    ['findme', { list: false, number: false, ringTime: false }],
    ['repeat_greeting', { list: false, number: false, ringTime: false }],
    [null, { list: false, number: false, ringTime: false }],
  ] as const)('%s', (drop, fields) => {
    expect(fieldsFor(drop)).toEqual(fields);
  });

  it('keeps a number between phone and outside, never a colleague as a number, and the ring time only for phone', () => {
    expect(withDrop(route('phone', '+14155550142', 20), 'outside')).toEqual(route('outside', '+14155550142'));
    expect(withDrop(route('outside', '+14155550142'), 'phone')).toEqual(route('phone', '+14155550142'));
    expect(withDrop(route('ext', '4'), 'phone')).toEqual(route('phone'));
    expect(withDrop(route('ext', '4'), 'box')).toEqual(route('box'));
    expect(withDrop(route('phone', '1', 20), null)).toEqual(NO_ROUTE);
    const same = route('ext', '4');
    expect(withDrop(same, 'ext')).toBe(same);
  });
});

describe('problems at their fields', () => {
  it('takes the first problem of each field of one form', () => {
    const problems = [
      { path: 'routeBusy.value', message: 'ERROR_EXT' as const },
      { path: 'routeNoAnswer.phoneTime', message: 'ERROR_PHONE_TIME' as const },
      { path: 'routeBusy.value', message: 'ERROR_BOX' as const },
      { path: 'afterHoursNextStep.drop', message: 'ERROR_FIND_ME_LOOP' as const },
    ];
    expect(fieldProblems(problems, 'routeBusy')).toEqual({ value: 'ERROR_EXT' });
    expect(fieldProblems(problems, 'routeNoAnswer')).toEqual({ phoneTime: 'ERROR_PHONE_TIME' });
    expect(fieldProblems(problems, 'afterHoursNextStep')).toEqual({ drop: 'ERROR_FIND_ME_LOOP' });
    expect(fieldProblems(problems, 'routeAlways')).toEqual({});
  });

  it('a save failure: 403 or a message naming "authorized" is the no-permission notice, else the server message and its field problems', () => {
    expect(saveFailure(new ApiError(403, { error: 'forbidden', message: 'Nope' }))).toEqual({ kind: 'notAuthorized' });
    expect(saveFailure(new ApiError(400, { error: 'x', message: 'You are not authorized to make updates' }))).toEqual({ kind: 'notAuthorized' });
    expect(saveFailure(new ApiError(400, { error: 'validation_failed', message: 'Choose the extension', details: [{ path: 'routeBusy.value', message: 'ERROR_EXT' }, { path: 'x', message: 'Required' }] }))).toEqual({
      kind: 'failed',
      message: 'Choose the extension',
      problems: [{ path: 'routeBusy.value', message: 'ERROR_EXT' }],
    });
    expect(saveFailure(new TypeError('Failed to fetch'))).toEqual({ kind: 'failed', message: null, problems: [] });
  });
});

describe('find-me', () => {
  const findMe = {
    ...DEFAULT_FIND_ME,
    ring_strategy: 'simultaneous' as const,
    locations: [
      { type: 'desk' as const, value: 'Desk', number: null, isActive: true, ringTime: 20 },
      { type: 'mobile' as const, value: ' Cell ', number: ' +14155550199 ', isActive: true, ringTime: 15 },
      { type: 'number' as const, value: null, number: '+14155550100', isActive: false, ringTime: 30 },
    ],
    startTime: '09:00:00',
    endTime: '17:00:00',
    simultaneous_next_step: route('box', SELF),
    afterHoursNextStep: route('busy'),
  };

  it('says what it does in one sentence', () => {
    expect(findMeSentence(findMe, TYPES, SELF, t)).toBe('Active locations: 2, rung all at once. Between 09:00:00 and 17:00:00; outside those hours: busy tone. If nobody answers: voicemail (yours).');
    expect(findMeSentence(DEFAULT_FIND_ME, TYPES, SELF, t)).toBe('Active locations: 0, rung one after another. If nobody answers: not set.');
  });

  it("keeps a saved window's zone; a new window takes this browser's; no window, no zone", () => {
    const draft = toDraft({ ...findMe, startTime: '09:00:00', endTime: '17:00:00', timeZone: 'Asia/Tokyo' });
    expect(fromDraft(draft, 'Europe/Paris').timeZone).toBe('Asia/Tokyo');
    expect(fromDraft({ ...draft, timeZone: null }, 'Europe/Paris').timeZone).toBe('Europe/Paris');
    expect(fromDraft({ ...draft, startTime: null, endTime: null }, 'Europe/Paris').timeZone).toBeNull();
    // A window saved before zones were kept was read in UTC, and still is: the draft says so.
    expect(withWindowZone({ ...findMe, startTime: '09:00:00', endTime: '17:00:00' }).timeZone).toBe('UTC');
    expect(withWindowZone({ ...findMe, startTime: null, endTime: null, timeZone: "Asia/Tokyo" }).timeZone).toBeNull();
  });

  it('moves rows by one, within the list', () => {
    expect(move(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('round-trips through the draft, trimmed, a desk phone without a number of its own; the window checked as the server checks it', () => {
    const wire = fromDraft(toDraft(findMe));
    expect(wire.locations.map((l) => [l.value, l.number])).toEqual([['Desk', null], ['Cell', '+14155550199'], [null, '+14155550100']]);
    expect(findMeProblems({ ...wire, startTime: '18:00:00' })).toEqual([{ path: 'startTime', message: 'ERROR_FIND_ME' }]);
    expect(t('calling.problems.ERROR_FIND_ME')).toBe('The find-me start time must be before the end time');
  });
});

it('describes a route without a sentence frame (the find-me next steps reuse it)', () => {
  expect(describeRoute(route('ext', '4'), TYPES, SELF, t)).toBe('ring Carol Okafor (1003)');
});
