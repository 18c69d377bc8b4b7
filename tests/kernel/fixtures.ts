import { allFeatures, definePlugin, serviceKey, type PluginManifest } from '../../src/kernel';

export const Greeter = serviceKey<{ greet(name: string): string }>('test.greeter');

export function fullPlugin(id = 'alpha'): PluginManifest {
  return definePlugin({
    id,
    titleKey: `${id}:title`,
    i18n: { namespace: id, load: async () => ({}) },
    provides: [{ key: Greeter, create: () => ({ greet: (n: string) => `hi ${n}` }) }],
    routes: [{ id: `${id}.screen`, path: `/${id}`, titleKey: `${id}:title`, component: async () => ({ default: () => null }) }],
    nav: [{ id: `${id}.nav`, titleKey: `${id}:title`, to: `/${id}`, icon: () => null, order: 1 }],
    panels: [{ id: `${id}.panel`, slot: 'callDock', component: () => null }],
    menus: [{ id: `${id}.menu`, menu: 'plusMenu', command: `${id}.go` }],
    commands: [
      { id: `${id}.go`, titleKey: `${id}:go`, run: () => undefined },
      { id: `${id}.gated`, titleKey: `${id}:gated`, feature: 'speedDial', run: () => undefined },
    ],
    hotkeys: [
      { command: `${id}.go`, keys: 'g a' },
      { command: `${id}.gated`, keys: 'g s' },
    ],
    searchProviders: [{ id: `${id}.things`, kindKey: `${id}:things`, items: () => [] }],
    settings: [{ key: `${id}.setting`, titleKey: `${id}:setting`, kind: 'boolean', default: false }],
    activate: (ctx) => {
      ctx.setContextKey('ready', true);
    },
  });
}

export const features = allFeatures(true);
