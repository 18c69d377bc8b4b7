import { describe, expect, it } from 'vitest';
import type { PluginManifest } from '../../src/kernel';
import { guestPart } from '../../src/shell/guestBoot';
import { meetingSlugOf } from '../../src/shell/redirect';

describe('guest mode', () => {
  it('offers guests only a meeting address (/uc/{alias}/{slug}), with or without its parameters', () => {
    expect(meetingSlugOf('/uc/leila.haddad/abc12')).toBe('abc12');
    expect(meetingSlugOf('/uc/leila.haddad/abc12?ssid=1&pin=1234')).toBe('abc12');
    for (const p of [undefined, '/', '/contacts', '/uc/leila.haddad', '/uc/a/ABCDE', '/uc/a/abc12/more', '//uc/a/abc12', '/meetings/12']) expect(meetingSlugOf(p)).toBeNull();
  });

  it("keeps of a plugin only its guest routes, strings and commands: no services, navigation, menus, search or activation", () => {
    const component = async () => ({ default: () => null });
    const plugin = {
      id: 'p',
      titleKey: 'p:title',
      i18n: { namespace: 'p', load: async () => ({}) },
      routes: [
        { id: 'p.list', path: '/p', titleKey: 'p:title', component, home: true },
        { id: 'p.page', path: '/uc/$alias/$slug', titleKey: 'p:page', component, guest: true },
      ],
      nav: [{ id: 'p', titleKey: 'p:title', to: '/p', order: 1 }],
      commands: [],
      activate: () => undefined,
    } as unknown as PluginManifest;
    const part = guestPart(plugin)!;
    expect(part.routes!.map((r) => r.id)).toEqual(['p.page']);
    expect(part.i18n).toBe(plugin.i18n);
    expect(Object.keys(part).sort()).toEqual(['commands', 'hotkeys', 'i18n', 'id', 'routes', 'titleKey']);
    expect(guestPart({ ...plugin, routes: plugin.routes!.filter((r) => !r.guest) })).toBeNull();
  });

  it("gives guests what a plugin's later part says of its commands, and none of its search or live work", async () => {
    const behaviours = { 'p.mute': { keywords: ['microphone'], enabled: () => true as const } };
    const plugin = {
      id: 'p',
      titleKey: 'p:title',
      routes: [{ id: 'p.page', path: '/uc/$alias/$slug', titleKey: 'p:page', component: async () => ({ default: () => null }), guest: true }],
      commands: [],
      later: async () => ({ commands: behaviours, searchProviders: [{ id: 'p.people', kindKey: 'p:kind', items: () => [] }], activate: () => undefined }),
    } as unknown as PluginManifest;
    const part = await guestPart(plugin)!.later!();
    expect(part).toEqual({ commands: behaviours });
  });
});
