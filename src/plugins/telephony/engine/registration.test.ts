import { describe, expect, it, vi } from 'vitest';
import { REG_RENEW_SECONDS } from '../../../wire/services';
import { phone } from '../state';
import type { PhoneEngine } from './PhoneEngine';
import type { Harness } from './test-fakes';
import { engineTests, flush, only } from './test-engine';

let h: Harness;
let engine: PhoneEngine;

const started = engineTests((s) => ({ h, engine } = s));

describe('registration', () => {
  it('reserves the registration for this tab, then registers with fresh credentials and the configured expiry', async () => {
    await started();
    expect(h.posts[0]).toEqual({ path: '/v1/regreserve', body: { peer: 'web-me', client: 'web' } });
    expect(h.uas).toHaveLength(1);
    expect(h.ua().config).toMatchObject({ uri: 'sip:1001@uc.local', password: 'secret-1', registerExpires: 300, noAnswerTimeout: 60, displayName: 'Alice Nguyen', wsUrl: 'ws://127.0.0.1:15060/' });
    expect(h.ua().start).toHaveBeenCalled();
    expect(phone.status).toBe('ready');
    expect(h.reports).toEqual(['connecting', 'connected']);
  });

  it('a closing tab releases the hold it has (keepalive), and only one it has', async () => {
    await started();
    engine.releaseHold();
    await flush();
    expect(h.posts.at(-1)).toEqual({ path: '/v1/regreserve', body: { peer: 'web-me', client: 'web', release: true }, keepalive: true });
    const sent = h.posts.length;
    engine.releaseHold();
    engine.dispose();
    await started({}, false);
    engine.releaseHold();
    await flush();
    expect(h.posts.filter((p) => (p.body as { release?: boolean }).release)).toHaveLength(0);
    expect(sent).toBeGreaterThan(0);
  });

  it('does not register while another tab holds the phone, says so, and takes over on request', async () => {
    await started({}, false);
    expect(h.uas).toHaveLength(0);
    expect(phone.status).toBe('elsewhere');
    expect(h.toasts[0]).toMatchObject({ titleKey: 'telephony:notices.elsewhereTitle', messageKey: 'telephony:notices.elsewhere', timeoutMs: null, action: { labelKey: 'telephony:commands.takeOver' } });
    // Renewals do not repeat the notice.
    await vi.advanceTimersByTimeAsync(REG_RENEW_SECONDS * 1000);
    expect(h.toasts).toHaveLength(1);

    h.grant.value = true;
    h.toasts[0]!.action!.run();
    await flush();
    expect(h.posts.at(-1)).toEqual({ path: '/v1/regreserve', body: { peer: 'web-me', client: 'web', takeover: true } });
    expect(phone.status).toBe('ready');
    expect(h.dismissed).toEqual(['toast-1']);
    expect(h.channelSent).toEqual([{ type: 'takeover', peer: 'web-me' }]);
  });

  it('picks the phone up by itself when the other holder lets its hold lapse', async () => {
    await started({}, false);
    h.grant.value = true;
    await vi.advanceTimersByTimeAsync(REG_RENEW_SECONDS * 1000);
    expect(phone.status).toBe('ready');
    expect(h.uas).toHaveLength(1);
  });

  it('renews the hold every REG_RENEW_SECONDS; refused, it stops the phone, ends its calls and tells the user', async () => {
    await started();
    const before = h.posts.length;
    await vi.advanceTimersByTimeAsync(REG_RENEW_SECONDS * 1000);
    expect(h.posts.length).toBe(before + 1);
    h.ua().ring('1002');
    h.grant.value = false;
    await vi.advanceTimersByTimeAsync(REG_RENEW_SECONDS * 1000);
    expect(h.ua().stop).toHaveBeenCalled();
    expect(phone.status).toBe('elsewhere');
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:notices.movedWithCalls' });
    expect(only().state).toBe('none');
  });

  it('checks at once when another tab of this browser says it took over', async () => {
    await started();
    h.grant.value = false;
    h.channelReceive({ type: 'takeover', peer: 'web-other' });
    await flush();
    expect(phone.status).toBe('elsewhere');
    expect(h.toasts.at(-1)).toMatchObject({ messageKey: 'telephony:notices.moved' });
  });

  it('a user without an extension is unconfigured', async () => {
    const { ApiError } = await import('../../../kernel');
    await started({
      api: {
        post: async () => {
          throw new ApiError(404, { error: 'sip_not_configured', message: 'Calling is not configured for this user' });
        },
        get: async () => undefined as never,
        request: async () => undefined as never,
      },
    });
    expect(phone.status).toBe('unconfigured');
    expect(h.uas).toHaveLength(0);
  });
});
