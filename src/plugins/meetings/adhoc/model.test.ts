import { describe, expect, it } from 'vitest';
import { ADHOC_EXPIRY_MS, adHocBlock, current, fromAttrs, newOffer, receivedOffer, step, toAttrs, type AdHocInvite } from './model';

const T0 = 1_700_000_000_000;
const offer = (): AdHocInvite => newOffer('inv-1', 7, 'Bob', T0);
const invitee = (): AdHocInvite => receivedOffer(fromAttrs(toAttrs(offer(), 'offer', 3, 7))!, 'Alice');
const ok = (s: ReturnType<typeof step>) => {
  if (!s.ok) throw new Error(`refused: ${s.reason}`);
  return s;
};

describe('ad-hoc invite state machine', () => {
  it('offer → accept → available on both sides, with what each sends and does', () => {
    const a = ok(step(invitee(), { kind: 'accept' }, T0 + 1000));
    expect(a).toMatchObject({ send: 'accept', invite: { status: 'accept' } });
    const b = ok(step(offer(), { kind: 'received', status: 'accept' }, T0 + 1500));
    expect(b).toMatchObject({ createMeeting: true, invite: { status: 'accept' } });
    const c = ok(step(b.invite, { kind: 'ready', meetingId: 12, meetingAccessCode: '123456789', url: 'http://x/uc/a/s' }, T0 + 2000));
    expect(c).toMatchObject({ send: 'available', join: true, invite: { status: 'available', meetingId: 12, meetingAccessCode: '123456789' } });
    const d = ok(step(a.invite, { kind: 'received', status: 'available', meetingId: 12, meetingAccessCode: '123456789', url: 'http://x/uc/a/s' }, T0 + 2500));
    expect(d).toMatchObject({ join: true, invite: { status: 'available', url: 'http://x/uc/a/s' } });
  });

  it('decline sends decline, and the inviter learns it', () => {
    expect(ok(step(invitee(), { kind: 'decline' }, T0))).toMatchObject({ send: 'decline', invite: { status: 'decline' } });
    expect(ok(step(offer(), { kind: 'received', status: 'decline' }, T0)).invite.status).toBe('decline');
  });

  it('accepting or declining twice is blocked', () => {
    const accepted = ok(step(invitee(), { kind: 'accept' }, T0)).invite;
    expect(step(accepted, { kind: 'accept' }, T0)).toMatchObject({ ok: false, reason: 'answered' });
    expect(step(accepted, { kind: 'decline' }, T0)).toMatchObject({ ok: false, reason: 'answered' });
    const declined = ok(step(invitee(), { kind: 'decline' }, T0)).invite;
    expect(step(declined, { kind: 'decline' }, T0)).toMatchObject({ ok: false, reason: 'answered' });
    expect(step(declined, { kind: 'accept' }, T0)).toMatchObject({ ok: false, reason: 'answered' });
  });

  it('an offer expires after 120000 ms: nobody may act on it, and a late accept is ignored', () => {
    expect(current(invitee(), T0 + ADHOC_EXPIRY_MS - 1).status).toBe('offer');
    expect(current(invitee(), T0 + ADHOC_EXPIRY_MS).status).toBe('expired');
    expect(step(invitee(), { kind: 'accept' }, T0 + ADHOC_EXPIRY_MS)).toMatchObject({ ok: false, reason: 'expired' });
    expect(step(invitee(), { kind: 'decline' }, T0 + ADHOC_EXPIRY_MS)).toMatchObject({ ok: false, reason: 'expired' });
    expect(step(offer(), { kind: 'cancel' }, T0 + ADHOC_EXPIRY_MS)).toMatchObject({ ok: false, reason: 'expired' });
    expect(step(offer(), { kind: 'received', status: 'accept' }, T0 + ADHOC_EXPIRY_MS)).toMatchObject({ ok: false, reason: 'ignored' });
    expect(ok(step(offer(), { kind: 'tick' }, T0 + ADHOC_EXPIRY_MS)).invite.status).toBe('expired');
  });

  it('a cancelled invite cannot be acted on', () => {
    const cancelled = ok(step(invitee(), { kind: 'received', status: 'cancel' }, T0)).invite;
    expect(cancelled.status).toBe('cancel');
    expect(step(cancelled, { kind: 'accept' }, T0)).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(step(cancelled, { kind: 'decline' }, T0)).toMatchObject({ ok: false, reason: 'cancelled' });
    const mine = ok(step(offer(), { kind: 'cancel' }, T0));
    expect(mine).toMatchObject({ send: 'cancel', invite: { status: 'cancel' } });
    expect(step(mine.invite, { kind: 'received', status: 'accept' }, T0)).toMatchObject({ ok: false, reason: 'ignored' });
  });

  it('only the invitee answers and only the inviter cancels or makes the meeting', () => {
    expect(step(offer(), { kind: 'accept' }, T0)).toMatchObject({ ok: false, reason: 'notYours' });
    expect(step(invitee(), { kind: 'cancel' }, T0)).toMatchObject({ ok: false, reason: 'notYours' });
    expect(step(invitee(), { kind: 'received', status: 'accept' }, T0)).toMatchObject({ ok: false, reason: 'ignored' });
    // available before the invitee accepted is not a reason to open a window.
    expect(step(invitee(), { kind: 'received', status: 'available', url: 'http://x/uc/a/s' }, T0)).toMatchObject({ ok: false });
  });

  it('a meeting that could not be made closes the invite on both sides', () => {
    const accepted = ok(step(offer(), { kind: 'received', status: 'accept' }, T0)).invite;
    expect(ok(step(accepted, { kind: 'failed' }, T0))).toMatchObject({ send: 'close', invite: { status: 'close' } });
    const waiting = ok(step(invitee(), { kind: 'accept' }, T0)).invite;
    expect(ok(step(waiting, { kind: 'received', status: 'close' }, T0)).invite.status).toBe('close');
  });

  it('reads payloads strictly: unknown statuses, bad ids and other schemes are refused', () => {
    const a = toAttrs({ ...offer(), meetingId: 5, meetingAccessCode: '42', url: 'https://m/uc/a/s' }, 'available', 3, 7);
    expect(fromAttrs(a)).toMatchObject({ status: 'available', meetingId: 5, meetingAccessCode: '42', url: 'https://m/uc/a/s', from: 3, to: 7 });
    expect(fromAttrs({ ...a, status: 'ring' })).toBeNull();
    expect(fromAttrs({ ...a, inviteId: '<x>' })).toBeNull();
    expect(fromAttrs({ ...a, url: 'javascript:alert(1)' })?.url).toBeNull();
  });

  it('meet now needs web meeting management, ad-hoc enabled, a colleague other than oneself who is available', () => {
    const base = { webMeetingManagement: true, adhocEnabled: true, userId: 7, self: false, available: true };
    expect(adHocBlock(base)).toBeNull();
    expect(adHocBlock({ ...base, webMeetingManagement: false })).toBe('noManagement');
    expect(adHocBlock({ ...base, adhocEnabled: false })).toBe('noAdhoc');
    expect(adHocBlock({ ...base, userId: null })).toBe('notColleague');
    expect(adHocBlock({ ...base, self: true })).toBe('self');
    expect(adHocBlock({ ...base, available: false })).toBe('unavailable');
  });
});
