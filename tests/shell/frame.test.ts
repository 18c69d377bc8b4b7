// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allFeatures, ApiError, Kernel } from '../../src/kernel';
import { createAnalytics } from '../../src/shell/analytics';
import { checkMaintenance, isStale, loadAnnouncements, MAINTENANCE_LOGOUT, missingFeatures, oldClientReason, pageBuild, watchMaintenance } from '../../src/shell/frameChecks';
import { loginUrl, signedOutReason } from '../../src/shell/landing';
import { createServerPush } from '../../src/shell/serverPush';
import { createShellPlugin } from '../../src/shell/shellPlugin';
import { shellState } from '../../src/shell/uiState';
import { MAINTENANCE_SUBJECT } from '../../src/wire/frameConstants';

afterEach(() => {
  vi.restoreAllMocks();
  Object.assign(shellState, { oldClient: null, announcement: null });
});

describe('the old-client rule', () => {
  it('a tab running another build than the server serves is stale; unknown builds (development) never are', () => {
    expect(isStale('index-A.js', 'index-B.js')).toBe(true);
    expect(isStale('index-A.js', 'index-A.js')).toBe(false);
    expect(isStale(null, 'index-B.js')).toBe(false);
    expect(isStale('index-A.js', null)).toBe(false);
  });

  it("reads this page's built entry script, and none under the development server", () => {
    document.head.innerHTML = '<script type="module" crossorigin src="/assets/index-Zz9.js"></script>';
    expect(pageBuild()).toBe('index-Zz9.js');
    document.head.innerHTML = '<script type="module" src="/src/main.tsx"></script>';
    expect(pageBuild()).toBeNull();
  });

  it('a browser missing a required feature is too old whatever the build; a stale build asks for a reload', () => {
    expect(oldClientReason('index-B.js', 'index-A.js', ['RTCPeerConnection'])).toBe('browser');
    expect(oldClientReason('index-B.js', 'index-A.js', [])).toBe('stale');
    expect(oldClientReason('index-A.js', 'index-A.js', [])).toBeNull();
    const bare = { WebSocket: function () {}, Intl } as unknown as typeof globalThis;
    expect(missingFeatures(bare)).toEqual(expect.arrayContaining(['RTCPeerConnection', 'indexedDB', 'structuredClone', 'crypto.randomUUID']));
  });
});

describe('maintenance', () => {
  it('the pushed headline runs the check; its 503 sends the browser to /logout with the reason, which the login page keeps', async () => {
    const push = createServerPush();
    const api = { get: vi.fn(async () => Promise.reject(new ApiError(503, { error: 'maintenance', message: 'Back soon' }))) };
    const go = vi.fn();
    watchMaintenance(push, api, go);
    push.publish('urn:uc:rooms:0', '{}');
    expect(api.get).not.toHaveBeenCalled();
    push.publish(MAINTENANCE_SUBJECT, '{}');
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith(MAINTENANCE_LOGOUT));
    expect(api.get).toHaveBeenCalledWith('/v1/maintenance');
    expect(loginUrl({ pathname: '/logout', search: '?reason=maintenance', hash: '' })).toBe('/login?reason=maintenance');
    expect(signedOutReason('?reason=maintenance')).toBe('maintenance');
    expect(signedOutReason('?reason=other')).toBeUndefined();
  });

  it('a running service leaves the user where they are, and says when the tab is stale', async () => {
    document.head.innerHTML = '<script type="module" crossorigin src="/assets/index-Old.js"></script>';
    // What jsdom lacks of a current browser.
    vi.stubGlobal('RTCPeerConnection', function () {});
    vi.stubGlobal('indexedDB', {});
    expect(missingFeatures()).toEqual([]);
    const go = vi.fn();
    await checkMaintenance({ get: vi.fn(async () => ({ maintenance: false, client_build: 'index-Old.js' })) } as never, go);
    expect(shellState.oldClient).toBeNull();
    await checkMaintenance({ get: vi.fn(async () => ({ maintenance: false, client_build: 'index-New.js' })) } as never, go);
    expect(go).not.toHaveBeenCalled();
    expect(shellState.oldClient).toBe('stale');
    vi.unstubAllGlobals();
  });
});

describe('the frame', () => {
  it('shows the design-changes announcement only while the server lists it as pending', async () => {
    await loadAnnouncements({ get: vi.fn(async () => ({ pending: [] })) } as never);
    expect(shellState.announcement).toBeNull();
    await loadAnnouncements({ get: vi.fn(async () => ({ pending: ['design-changes'] })) } as never);
    expect(shellState.announcement).toBe('design-changes');
  });

  it("the apps menu has the user's contact-center pages only, each opening in a new tab", async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const kernel = new Kernel({ features: allFeatures(true), mac: false });
    kernel.load([createShellPlugin({ setLanguage: async () => undefined, contactCenter: [{ type: 'ivr', admin_url: 'https://ivr.example/admin', agent_url: null }] })]);
    const apps = kernel.menus.list().filter((m) => m.item.menu === 'appsMenu').map((m) => m.item.command);
    expect(apps).toEqual(['shell.ccAdmin', 'shell.ccAgent', 'shell.ivrAdmin']);
    const visible = apps.filter((id) => kernel.isVisible(kernel.commands.get(id)!.item));
    expect(visible).toEqual(['shell.ivrAdmin']);
    await kernel.run('shell.ivrAdmin', {}, 'menu');
    expect(open).toHaveBeenCalledWith('https://ivr.example/admin', '_blank', 'noopener,noreferrer');
    expect(await kernel.run('shell.ccAdmin', {}, 'menu')).toBe(false);
  });

  it('counts what happened with a tab id, and a failed count is never thrown', async () => {
    const post = vi.fn(async () => Promise.reject(new Error('offline')));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    createAnalytics({ post } as never, () => 'tab-1234-5678').track('command:shell.help');
    expect(post).toHaveBeenCalledWith('/v1/analytics', { action_type: 'command:shell.help', session_id: 'tab-1234-5678' });
    await vi.waitFor(() => expect(console.warn).toHaveBeenCalled());
  });
});
