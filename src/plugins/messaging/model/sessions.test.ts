import { describe, expect, it } from 'vitest';
import { emptyRosterGroups, isAccessDenied, isGroup, moveToRosterGroup, nextPhase, rosterGroupOf } from './sessions';

describe('session lifecycle', () => {
  it('goes created → initialised → hydrated → destroyed, and destroyed is final', () => {
    let p = nextPhase('created', 'init');
    expect(p).toBe('initialised');
    p = nextPhase(p, 'hydrated');
    expect(p).toBe('hydrated');
    for (const reason of ['accessDenied', 'affiliationNone', 'deleted', 'expired', 'left'] as const) expect(nextPhase(p, { destroy: reason })).toBe('destroyed');
    expect(nextPhase('destroyed', 'init')).toBe('destroyed');
    expect(nextPhase('destroyed', 'hydrated')).toBe('destroyed');
  });

  it('re-hydrates non-meeting sessions on reconnect; meeting sessions stay as they are', () => {
    expect(nextPhase('hydrated', 'reconnected', 'g-1@conference.uc.local')).toBe('initialised');
    expect(nextPhase('hydrated', 'reconnected', 'bob@uc.local')).toBe('initialised');
    expect(nextPhase('hydrated', 'reconnected', 'v.meeting@conference.uc.local')).toBe('hydrated');
    expect(nextPhase('created', 'reconnected', 'bob@uc.local')).toBe('created');
  });

  it('treats the MUC refusals as access denied, and nothing else', () => {
    for (const c of ['forbidden', 'not-allowed', 'registration-required', 'item-not-found', 'not-authorized']) expect(isAccessDenied(c)).toBe(true);
    for (const c of ['service-unavailable', 'resource-constraint', null, undefined, '']) expect(isAccessDenied(c)).toBe(false);
  });
});

describe('roster groups', () => {
  it('moving a chat to a group removes it from recent, pin and closed first', () => {
    let g = moveToRosterGroup(emptyRosterGroups(), 'bob@uc.local', 'recent');
    g = moveToRosterGroup(g, 'carol@uc.local', 'recent');
    g = moveToRosterGroup(g, 'bob@uc.local', 'pin');
    expect(g).toEqual({ pin: ['bob@uc.local'], recent: ['carol@uc.local'], closed: [] });
    g = moveToRosterGroup(g, 'bob@uc.local', 'closed');
    expect(g).toEqual({ pin: [], recent: ['carol@uc.local'], closed: ['bob@uc.local'] });
    expect(rosterGroupOf(g, 'bob@uc.local')).toBe('closed');
    expect(rosterGroupOf(g, 'nobody@uc.local')).toBe('recent');
    expect(moveToRosterGroup(g, 'bob@uc.local', null)).toEqual({ pin: [], recent: ['carol@uc.local'], closed: [] });
  });

  it('a session is a group (gchat) with more than 2 members', () => {
    expect(isGroup(2)).toBe(false);
    expect(isGroup(3)).toBe(true);
  });
});
