/** The routing decision for every combination of the callee's rules and the call's event (issue 20). */
import { describe, expect, it } from 'vitest';
import type { ForwardSetting } from '../../src/wire/calling';
import { DEFAULT_FIND_ME, NO_ROUTE, type FindMe, type InboundRoute, type InboundRoutes } from '../../src/wire/inbound';
import { decideRoute, encodeDecision, timeOfDay, type CalleeRules, type CallFacts, type Decision, type RouteEvent } from '../../server/sip/decision';

const NOON = new Date('2026-11-27T12:00:00Z');
const rules = (over: Partial<CalleeRules> = {}): CalleeRules => ({
  extension: '1001',
  dnd: false,
  forwardAlways: null,
  forwardDefault: null,
  inbound: null,
  findMe: null,
  // Users 2 (bob, 1002), 3 (carol, 1003) and the callee (1, 1001).
  extensions: new Map([['1', '1001'], ['2', '1002'], ['3', '1003']]),
  groups: new Map([['7', ['1001', '1002', '1003']], ['8', []]]),
  timeZone: null,
  ...over,
});
const facts = (event: RouteEvent, over: Partial<CallFacts> = {}): CallFacts => ({ event, now: NOON, ringSeconds: 25, ...over });
const route = (drop: InboundRoute['drop'], value: string | null = null, phoneTime: number | null = null): InboundRoute => ({ drop, value, phoneTime });
const inbound = (over: Partial<InboundRoutes>): InboundRoutes => ({ routeAlways: NO_ROUTE, routeBusy: NO_ROUTE, routeNoAnswer: NO_ROUTE, routeOffline: NO_ROUTE, ...over });
const fwd = (destination_type: 'ext' | 'box' | 'phone', destination_parameter: string): ForwardSetting => ({
  enabled: true,
  destination: { destination_type, destination_id: null, destination_name: null, destination_parameter },
});
const decide = (r: Partial<CalleeRules>, event: RouteEvent, f: Partial<CallFacts> = {}) => decideRoute(rules(r), facts(event, f));
const RING: Decision = { action: 'ring', seconds: 25 };
const NONE: Decision = { action: 'none' };

describe('a new call', () => {
  it('rings the callee with nothing set; do-not-disturb answers busy before any rule', () => {
    expect(decide({}, 'incoming')).toEqual(RING);
    expect(decide({ dnd: true, forwardAlways: fwd('ext', '1002'), inbound: inbound({ routeAlways: route('ext', '3') }) }, 'incoming')).toEqual({ action: 'dnd' });
  });

  it('the forward-always switch wins over routeAlways; off, routeAlways applies', () => {
    const both = { forwardAlways: fwd('ext', '1002'), inbound: inbound({ routeAlways: route('ext', '3') }) };
    expect(decide(both, 'incoming')).toEqual({ action: 'forward', number: '1002', seconds: null });
    expect(decide({ ...both, forwardAlways: { enabled: false, destination: null } }, 'incoming')).toEqual({ action: 'forward', number: '1003', seconds: null });
  });

  it('routeAlways for each routable drop', () => {
    const always = (r: InboundRoute) => decide({ inbound: inbound({ routeAlways: r }) }, 'incoming');
    expect(always(route('box', '1'))).toEqual({ action: 'voicemail', box: '1001' });
    expect(always(route('box', '2'))).toEqual({ action: 'voicemail', box: '1002' });
    expect(always(route('ext', '2'))).toEqual({ action: 'forward', number: '1002', seconds: null });
    expect(always(route('outside', '+1 (555) 123-4567'))).toEqual({ action: 'forward', number: '+15551234567', seconds: null });
    expect(always(route('phone', '5551234567', 15))).toEqual({ action: 'forward', number: '5551234567', seconds: 15 });
    expect(always(route('busy'))).toEqual({ action: 'busy' });
    expect(always(route('repeat_greeting'))).toEqual({ action: 'greeting', box: '1001' });
    // A group rings everyone in it but the callee, together, for the usual ring time.
    expect(always(route('group', '7'))).toEqual({
      action: 'hunt', strategy: 'simultaneous', recordName: false, announceBetween: false,
      targets: [{ number: '1002', device: null, seconds: 25 }, { number: '1003', device: null, seconds: 25 }],
    });
  });

  it('a rule naming what is gone, or the callee itself, falls back to ringing', () => {
    const always = (r: InboundRoute) => decide({ inbound: inbound({ routeAlways: r }) }, 'incoming');
    for (const r of [route('ext', '99'), route('ext', '1'), route('box', '99'), route('group', '8'), route('group', '99'), route('outside', '1001'), route('queue', '5')]) {
      expect(always(r)).toEqual(RING);
    }
    expect(decide({ forwardAlways: fwd('ext', '1001') }, 'incoming')).toEqual(RING);
  });

  it('a callee known to be offline: routeOffline at once; otherwise ringing (the proxy finds no phone)', () => {
    const offline = { inbound: inbound({ routeOffline: route('ext', '3') }) };
    expect(decide(offline, 'incoming', { registered: false })).toEqual({ action: 'forward', number: '1003', seconds: null });
    expect(decide(offline, 'incoming', { registered: true })).toEqual(RING);
    expect(decide(offline, 'incoming')).toEqual(RING);
    expect(decide({}, 'incoming', { registered: false })).toEqual(RING);
  });
});

describe('a call the callee could not take', () => {
  const all = inbound({ routeBusy: route('box', '1'), routeNoAnswer: route('ext', '2'), routeOffline: route('outside', '5551234567') });

  it('busy, no answer and offline each follow their own rule', () => {
    expect(decide({ inbound: all }, 'busy')).toEqual({ action: 'voicemail', box: '1001' });
    expect(decide({ inbound: all }, 'noanswer')).toEqual({ action: 'forward', number: '1002', seconds: null });
    expect(decide({ inbound: all }, 'offline')).toEqual({ action: 'forward', number: '5551234567', seconds: null });
  });

  it('a failure with no rule of its own takes the default forward, else nothing', () => {
    const only = { inbound: inbound({ routeBusy: route('busy') }), forwardDefault: fwd('box', '1001') };
    expect(decide(only, 'busy')).toEqual({ action: 'busy' });
    expect(decide(only, 'noanswer')).toEqual({ action: 'voicemail', box: '1001' });
    expect(decide(only, 'offline')).toEqual({ action: 'voicemail', box: '1001' });
    for (const e of ['busy', 'noanswer', 'offline', 'unanswered', 'huntfailed'] as const) expect(decide({}, e)).toEqual(NONE);
  });

  it('`unanswered` (a proxy that does not say which failure) answers from the default forward alone, as before', () => {
    expect(decide({ inbound: all }, 'unanswered')).toEqual(NONE);
    expect(decide({ inbound: all, forwardDefault: fwd('ext', '1003') }, 'unanswered')).toEqual({ action: 'forward', number: '1003', seconds: null });
    expect(decide({ forwardDefault: { enabled: false, destination: fwd('ext', '1003').destination } }, 'unanswered')).toEqual(NONE);
  });

  it('do-not-disturb then busy: the busy rule', () => {
    expect(decide({ dnd: true, inbound: all }, 'busy')).toEqual({ action: 'voicemail', box: '1001' });
  });
});

describe('find-me', () => {
  const findMe = (over: Partial<FindMe>): FindMe => ({
    ...DEFAULT_FIND_ME,
    locations: [
      { type: 'browser', value: 'Browser', number: null, isActive: true, ringTime: 10 },
      { type: 'desk', value: 'Desk', number: null, isActive: false, ringTime: 15 },
      { type: 'mobile', value: 'Mobile', number: '(555) 000-1111', isActive: true, ringTime: 20 },
      { type: 'number', value: 'Bob', number: '1002', isActive: true, ringTime: 25 },
    ],
    ...over,
  });
  const viaFindMe = (f: FindMe, event: RouteEvent = 'incoming', at: Partial<CallFacts> = {}, tz: string | null = null) =>
    decide({ findMe: f, timeZone: tz, inbound: inbound({ routeAlways: route('findme'), routeNoAnswer: route('findme') }) }, event, at);
  const active = [
    { number: '1001', device: 'browser', seconds: 10 },
    { number: '5550001111', device: null, seconds: 20 },
    { number: '1002', device: null, seconds: 25 },
  ];

  it('rings the active locations in order or together, with their ring times and announcements', () => {
    expect(viaFindMe(findMe({}))).toEqual({ action: 'hunt', strategy: 'sequential', targets: active, recordName: false, announceBetween: false, nextStep: false });
    expect(viaFindMe(findMe({ ring_strategy: 'simultaneous', recordName: true, announceBetween: true }))).toEqual({ action: 'hunt', strategy: 'simultaneous', targets: active, recordName: true, announceBetween: true, nextStep: false });
    // As the no-answer rule: after the callee's own phones.
    expect(viaFindMe(findMe({}), 'noanswer')).toMatchObject({ action: 'hunt', targets: active });
  });

  it('nobody answered: the next step; no active location: the next step at once', () => {
    const next = findMe({ simultaneous_next_step: route('box', '1') });
    // The proxy is told to ask again only when there is a next step to ask for.
    expect(viaFindMe(next)).toMatchObject({ action: 'hunt', nextStep: true });
    expect(encodeDecision(viaFindMe(next), 'incoming')).toBe('hunt:sequential:next:1001;device=browser/10,5550001111/20,1002/25');
    expect(viaFindMe(next, 'huntfailed')).toEqual({ action: 'voicemail', box: '1001' });
    expect(viaFindMe(findMe({}), 'huntfailed')).toEqual(NONE);
    expect(viaFindMe({ ...next, locations: next.locations.map((l) => ({ ...l, isActive: false })) })).toEqual({ action: 'voicemail', box: '1001' });
    // find-me as its own next step is refused when saved; an old row does not loop.
    expect(viaFindMe({ ...findMe({}), locations: [], simultaneous_next_step: route('findme') })).toEqual(RING);
  });

  it('outside its window, the after-hours step (or ringing); the window is in the callee’s zone', () => {
    const window = findMe({ startTime: '09:00:00', endTime: '17:00:00', afterHoursNextStep: route('ext', '3') });
    expect(viaFindMe(window, 'incoming', { now: new Date('2026-11-27T08:59:59Z') })).toEqual({ action: 'forward', number: '1003', seconds: null });
    expect(viaFindMe(window, 'incoming', { now: new Date('2026-11-27T09:00:00Z') })).toMatchObject({ action: 'hunt' });
    expect(viaFindMe(window, 'incoming', { now: new Date('2026-11-27T17:00:00Z') })).toEqual({ action: 'forward', number: '1003', seconds: null });
    expect(viaFindMe({ ...window, afterHoursNextStep: NO_ROUTE }, 'incoming', { now: new Date('2026-11-27T20:00:00Z') })).toEqual(RING);
    // 12:00 UTC is 21:00 in Tokyo: after hours there.
    expect(viaFindMe(window, 'incoming', {}, 'Asia/Tokyo')).toEqual({ action: 'forward', number: '1003', seconds: null });
    expect(timeOfDay(NOON, 'Not/AZone')).toBe('12:00:00');
    expect(timeOfDay(new Date('2026-11-27T00:00:05Z'), null)).toBe('00:00:05');
  });
});

describe('the answer Kamailio reads', () => {
  it('keeps the verbs it has always known byte for byte', () => {
    expect(encodeDecision(RING, 'incoming')).toBe('ring');
    expect(encodeDecision({ action: 'dnd' }, 'incoming')).toBe('dnd');
    expect(encodeDecision(NONE, 'unanswered')).toBe('ring');
    expect(encodeDecision({ action: 'voicemail', box: '1001' }, 'unanswered')).toBe('voicemail:1001');
    expect(encodeDecision({ action: 'forward', number: '1002', seconds: null }, 'incoming')).toBe('forward:1002');
  });

  it('says the new decisions in new verbs', () => {
    expect(encodeDecision(NONE, 'busy')).toBe('none');
    expect(encodeDecision({ action: 'busy' }, 'busy')).toBe('busy');
    expect(encodeDecision({ action: 'greeting', box: '1001' }, 'noanswer')).toBe('greeting:1001');
    expect(encodeDecision({ action: 'forward', number: '5551234567', seconds: 15 }, 'incoming')).toBe('hunt:sequential:-:5551234567/15');
    expect(encodeDecision({
      action: 'hunt', strategy: 'simultaneous', recordName: true, announceBetween: true,
      targets: [{ number: '1001', device: 'desk', seconds: 10 }, { number: '1002', device: null, seconds: 20 }],
    }, 'incoming')).toBe('hunt:simultaneous:name+between:1001;device=desk/10,1002/20');
  });
});
