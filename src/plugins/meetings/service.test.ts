import { afterEach, describe, expect, it, vi } from 'vitest';
import { Navigation, Notifications, Preferences, type ServiceLookup } from '../../kernel';
import type { Meeting } from '../../wire/meetings';
import { mayCreate } from './later';
import { readCanCreate } from './canCreate';
import { meetingsService, todaysMeetings } from './service';
import { meetingsState, resetMeetingsState } from './state';

// The test runner's zone is the machine's; "today" is computed in it, so the times are built locally.
const local = (d: number, h: number) => new Date(2026, 5, d, h).toISOString();
const m = (key: string, start: string | null, over: Partial<Meeting> = {}) => ({ key, meeting_name: key, start, end: null, is_room: false, ...over }) as Meeting;

afterEach(resetMeetingsState);

describe("today's meetings (the dashboard's card)", () => {
  it('are null until the list is in', () => {
    expect(todaysMeetings.today(new Date(2026, 5, 10, 9))).toBeNull();
  });

  it("are the meetings starting on today's date, by start, without rooms", () => {
    meetingsState.items = [m('late', local(10, 17)), m('yesterday', local(9, 23)), m('early', local(10, 8)), m('room', null, { is_room: true }), m('tomorrow', local(11, 0))];
    expect(todaysMeetings.today(new Date(2026, 5, 10, 9))!.map((x) => x.key)).toEqual(['early', 'late']);
  });

  it('tell when the list changes', async () => {
    let told = 0;
    const sub = todaysMeetings.onChange(() => told++);
    meetingsState.items = [];
    await Promise.resolve();
    expect(told).toBe(1);
    meetingsState.search = 'x';
    await Promise.resolve();
    expect(told).toBe(1);
    sub.dispose();
  });
});

describe('uc-can-create-meetings decides "New meeting" and "Schedule meeting"', () => {
  const lookup = (prefs: { get: (key: string) => Promise<unknown> }, toast = vi.fn(), navigate = vi.fn()): ServiceLookup => {
    const map = new Map<unknown, unknown>([
      [Preferences, prefs],
      [Notifications, { toast }],
      [Navigation, { navigate }],
    ]);
    return { get: (k) => map.get(k) as never, maybe: (k) => map.get(k) as never, has: (k) => map.has(k) };
  };

  it('reads the key; false disables both, with the reason that fits', async () => {
    const get = vi.fn(async () => false);
    expect(await readCanCreate(lookup({ get }))).toBe(false);
    expect(get).toHaveBeenCalledWith('uc-can-create-meetings');
    expect(mayCreate(meetingsState.canCreate, { webMeetingManagement: true })).toEqual({ reasonKey: 'meetings:reasons.noCreate' });
    expect(mayCreate(meetingsState.canCreate, { webMeetingManagement: false })).toEqual({ reasonKey: 'meetings:reasons.noManagement' });
  });

  it('true (or not read yet) enables them', async () => {
    expect(mayCreate(null, { webMeetingManagement: true })).toBe(true);
    expect(await readCanCreate(lookup({ get: async () => true }))).toBe(true);
    expect(mayCreate(meetingsState.canCreate, { webMeetingManagement: true })).toBe(true);
  });

  it('a failed read leaves it unknown', async () => {
    expect(await readCanCreate(lookup({ get: async () => Promise.reject(new Error('down')) }))).toBeNull();
  });

  it("the contacts' Meet does not open the modal for a user who may not create meetings", async () => {
    const toast = vi.fn();
    const navigate = vi.fn();
    await meetingsService(lookup({ get: async () => false }, toast, navigate)).startMeeting([{ userId: 7, name: 'Bob' }]);
    expect(meetingsState.modal).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledWith({ titleKey: 'meetings:reasons.noCreate', tone: 'info' });
  });
});
