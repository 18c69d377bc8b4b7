import type { ChatEngineDeps } from './deps';

/**
 * Test support (not shipped: only tests import it): what every engine test gives the engine, with
 * its own connection, API and hooks on top.
 */
export function testEngineDeps(own: Partial<ChatEngineDeps> & Pick<ChatEngineDeps, 'api' | 'createConnection'>): ChatEngineDeps {
  return {
    mucDomain: 'conference.uc.local',
    connections: { register: () => ({ report: () => undefined, dispose: () => undefined }) },
    notify: { toast: () => '', dismiss: () => undefined, announce: () => undefined },
    t: (k) => k,
    userId: 1,
    pingIntervalMs: 60_000,
    pingTimeoutMs: 5_000,
    historyPageSize: 25,
    storage: null,
    ...own,
  };
}
