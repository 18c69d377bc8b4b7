import { describe, expect, it } from 'vitest';
import { remotePhone, servePhone, type PhoneChannel, type PhoneMessage } from '../../server/cluster-phones';
import type { VoicemailBox } from '../../server/voicemail/deposit';

/** Two processes' channels joined as the cluster's primary joins them (structured-cloned, asynchronous). */
function pair(): [PhoneChannel, PhoneChannel] {
  const listeners = new Map<number, Set<(m: unknown) => void>>([[1, new Set()], [2, new Set()]]);
  const channel = (index: number, other: number): PhoneChannel => ({
    index,
    send: (m: PhoneMessage) => setImmediate(() => listeners.get(other)!.forEach((l) => l(structuredClone(m)))),
    onMessage(listener) {
      listeners.get(index)!.add(listener);
      return () => void listeners.get(index)!.delete(listener);
    },
  });
  return [channel(1, 2), channel(2, 1)];
}

describe('the service phones of a cluster', () => {
  it("another process uses the first one's voicemail box: its answers, its errors, its readiness", async () => {
    const [first, second] = pair();
    const box: VoicemailBox & { ready: boolean } = {
      ready: true,
      open: async (mailbox: string) => mailbox === '1001',
      openGreeting: async () => {
        throw new Error('the voicemail phone is not connected');
      },
      openAnnouncer: async () => true,
      close: () => {},
    };
    const unserve = servePhone(first, 'voicemail', box);
    const remote = remotePhone<VoicemailBox>(second, 'voicemail', ['open', 'openGreeting', 'openAnnouncer']);
    try {
      await expect.poll(() => remote.ready).toBe(true);
      expect(await remote.open('1001')).toBe(true);
      expect(await remote.open('1999')).toBe(false);
      await expect(remote.openGreeting('1001')).rejects.toThrow('the voicemail phone is not connected');
      box.ready = false;
      await expect.poll(() => remote.ready, { timeout: 3000 }).toBe(false);
    } finally {
      unserve();
      remote.close();
    }
  });
});
