import { afterEach, describe, expect, it } from 'vitest';
import type { Meeting } from '../../wire/meetings';
import { todaysMeetings } from './service';
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
