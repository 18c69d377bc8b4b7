import { afterEach, describe, expect, it, vi } from 'vitest';
import { Navigation, Notifications, type ServiceLookup } from '../../kernel';
import { PeerPresenceApi, type PeerPresence } from '../../contracts';
import { resetWatches, toggleWatch } from './availability';

function fakeServices() {
  const presences = new Map<number, PeerPresence>();
  const listeners = new Set<() => void>();
  const toasts: Array<{ titleKey?: string; values?: Record<string, unknown>; action?: { run(): void } }> = [];
  const navigate = vi.fn();
  const services = {
    get: (key: unknown) => {
      if (key === Notifications) return { toast: (t: (typeof toasts)[number]) => (toasts.push(t), 'id'), announce: vi.fn(), dismiss: vi.fn() };
      if (key === Navigation) return { navigate };
      throw new Error('unexpected service');
    },
    maybe: (key: unknown) => (key === PeerPresenceApi ? { of: (id: number) => presences.get(id) ?? null, onChange: (l: () => void) => (listeners.add(l), { dispose: () => listeners.delete(l) }) } : undefined),
    has: (key: unknown) => key === PeerPresenceApi,
  } as unknown as ServiceLookup;
  const set = (id: number, state: PeerPresence['state']) => {
    presences.set(id, { state, label: state });
    for (const l of [...listeners]) l();
  };
  return { services, set, toasts, navigate, listeners };
}

const carol = { userId: 4, contactId: 'u4', name: 'Carol Okafor' };

describe('notify me when available', () => {
  afterEach(resetWatches);

  it('tells the user once when the colleague becomes available; the toast opens the contact', () => {
    const f = fakeServices();
    expect(toggleWatch(f.services, carol)).toBe('watching');
    f.set(4, 'away');
    expect(f.toasts).toHaveLength(0);
    f.set(4, 'available');
    expect(f.toasts).toEqual([expect.objectContaining({ titleKey: 'contacts:available.title', values: { name: 'Carol Okafor' } })]);
    f.toasts[0]!.action!.run();
    expect(f.navigate).toHaveBeenCalledWith('/contacts', { search: { contact: 'u4' } });
    // Once: going away and back says nothing more, and nothing listens any more.
    f.set(4, 'away');
    f.set(4, 'available');
    expect(f.toasts).toHaveLength(1);
    expect(f.listeners.size).toBe(0);
  });

  it('asking again while waiting stops waiting; a colleague already available is told at once', () => {
    const f = fakeServices();
    expect(toggleWatch(f.services, carol)).toBe('watching');
    expect(toggleWatch(f.services, carol)).toBe('stopped');
    f.set(4, 'available');
    expect(f.toasts).toHaveLength(0);
    expect(toggleWatch(f.services, carol)).toBe('told');
    expect(f.toasts).toHaveLength(1);
  });
});
