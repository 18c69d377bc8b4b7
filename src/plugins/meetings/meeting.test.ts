import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Api, ApiError, Navigation, Notifications, type ServiceLookup } from '../../kernel';
import type { Meeting } from '../../wire/meetings';
import { saveMeetingForm } from './meeting';
import { newForm, REOPEN_AFTER_FAILURE_MS } from './model';
import { meetingsState, resetMeetingsState } from './state';

const NY = 'America/New_York';
const NOW = Date.parse('2026-06-01T12:00:00Z');
const created = { id: 42, key: 'uc:42:room', meeting_name: 'Planning' } as Meeting;

function services(api: { post?: () => Promise<unknown>; put?: () => Promise<unknown> }) {
  const toast = vi.fn();
  const navigate = vi.fn();
  const client = { post: vi.fn(api.post ?? (async () => created)), put: vi.fn(api.put ?? (async () => created)), get: vi.fn(() => new Promise(() => undefined)) };
  const map = new Map<unknown, unknown>([
    [Api, client],
    [Notifications, { toast, announce: vi.fn(), dismiss: vi.fn() }],
    [Navigation, { navigate }],
  ]);
  const s: ServiceLookup = { get: (k) => map.get(k) as never, maybe: (k) => map.get(k) as never, has: (k) => map.has(k) };
  return { s, toast, navigate, client };
}

const typed = () => ({ ...newForm(NOW, NY), name: 'Planning', startDate: '2026-06-10', startTime: '10:00 AM', endDate: '2026-06-10', endTime: '11:00 AM' });

describe('the meeting modal state', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetMeetingsState();
    meetingsState.modal = { tab: 'schedule', editingId: null, seed: null };
  });
  afterEach(() => vi.useRealTimers());

  it('a refused rule keeps the modal open and sends nothing', async () => {
    const { s, client } = services({});
    const r = await saveMeetingForm(s, 'schedule', null, { ...typed(), endTime: '9:00 AM' }, NOW, NY);
    expect(r.errors).toEqual({ end: 'endTooSoon' });
    expect(client.post).not.toHaveBeenCalled();
    expect(meetingsState.modal).not.toBeNull();
  });

  it('after a create, the new meeting opens at meetings/{id}', async () => {
    const { s, navigate, toast, client } = services({});
    await saveMeetingForm(s, 'schedule', null, typed(), NOW, NY);
    expect(client.post).toHaveBeenCalledWith('/v1/meetings', expect.objectContaining({ meeting_name: 'Planning', start: '2026-06-10T14:00:00.000Z' }), expect.anything());
    expect(meetingsState.modal).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/meetings/42');
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ titleKey: 'meetings:toasts.scheduled' }));
  });

  it('an update goes back to meetings without a selection', async () => {
    const { s, navigate, client } = services({});
    meetingsState.modal = { tab: 'edit', editingId: 42, seed: null };
    await saveMeetingForm(s, 'edit', 42, typed(), NOW, NY);
    expect(client.put).toHaveBeenCalledWith('/v1/meetings/42', expect.anything(), expect.anything());
    expect(navigate).toHaveBeenCalledWith('/meetings');
  });

  it('a failed save reopens the modal after 175 ms with what was typed, and an error toast with the server’s words', async () => {
    const refused = new ApiError(400, { error: 'validation_failed', message: 'An invitee is not a colleague of your organisation' });
    const { s, toast, navigate } = services({ post: () => Promise.reject(refused) });
    await saveMeetingForm(s, 'schedule', null, typed(), NOW, NY);
    expect(meetingsState.modal).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect(toast).toHaveBeenCalledWith({ titleKey: 'meetings:toasts.saveFailed', message: 'An invitee is not a colleague of your organisation', tone: 'error' });
    vi.advanceTimersByTime(REOPEN_AFTER_FAILURE_MS - 1);
    expect(meetingsState.modal).toBeNull();
    vi.advanceTimersByTime(1);
    expect(meetingsState.modal).toMatchObject({ tab: 'schedule', editingId: null, seed: { form: { name: 'Planning', startTime: '10:00 AM' } } });
  });

  it('a failure without the server’s words says "please try again"', async () => {
    const { s, toast } = services({ post: () => Promise.reject(new TypeError('network')) });
    await saveMeetingForm(s, 'schedule', null, typed(), NOW, NY);
    expect(toast).toHaveBeenCalledWith({ titleKey: 'meetings:toasts.saveFailed', messageKey: 'meetings:toasts.tryAgain', tone: 'error' });
  });
});
