// @vitest-environment jsdom
import { createMemoryHistory } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { allFeatures, BootError, definePlugin, HomePage, Kernel, type PreferencesStore, type RouteContribution, type WhenFn } from '../../src/kernel';
import { createHomePage } from '../../src/shell/homePage';
import { buildAppRouter } from '../../src/shell/router';

const screen = (id: string, home?: true): RouteContribution => ({ id, path: `/${id}`, titleKey: `${id}:title`, component: async () => ({ default: () => null }), home });
const plugin = (id: string, home?: true) => definePlugin({ id, titleKey: `${id}:title`, routes: [screen(id, home)] });

function problemsOf(load: () => void): readonly string[] {
  try {
    load();
  } catch (e) {
    if (e instanceof BootError) return e.problems;
    throw e;
  }
  return [];
}

it('the product boots only with exactly one home route, each problem listed with the others', () => {
  const kernel = () => new Kernel({ features: allFeatures(true), mac: false });
  const dup = definePlugin({ id: 'dup', titleKey: 'x', routes: [screen('x'), screen('y')], commands: [{ id: 'other.go', titleKey: 'x', run: () => undefined }] });
  expect(problemsOf(() => kernel().load([plugin('alpha'), plugin('beta'), dup], { complete: true }))).toEqual([
    'command "other.go" must be prefixed with its plugin id "dup."',
    'no route is the home route (RouteContribution.home)',
  ]);
  expect(problemsOf(() => kernel().load([plugin('alpha', true), plugin('beta', true)]))).toEqual(['more than one home route: "alpha" (plugin "alpha"), "beta" (plugin "beta")']);
  // Counted with what is already loaded.
  const k = kernel();
  k.load([plugin('alpha', true)]);
  expect(problemsOf(() => k.load([plugin('beta', true)]))).toEqual(['more than one home route: "alpha" (plugin "alpha"), "beta" (plugin "beta")']);
  // A test that loads a few plugins needs no home.
  expect(problemsOf(() => kernel().load([plugin('alpha')]))).toEqual([]);
  expect(problemsOf(() => kernel().load([plugin('alpha'), plugin('beta', true)], { complete: true }))).toEqual([]);
});

it.each(['alpha', 'beta'])('"/" leads to the home route (%s)', async (home) => {
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([plugin('alpha', home === 'alpha' ? true : undefined), plugin('beta', home === 'beta' ? true : undefined)], { complete: true });
  const router = buildAppRouter(kernel, createMemoryHistory({ initialEntries: ['/'] }));
  await router.load();
  // The redirect is a second navigation, which load() does not wait for.
  await expect.poll(() => router.state.location.pathname).toBe(`/${home}`);
});

describe('the user\'s home page (HomePage service)', () => {
  const withNav = (id: string, home?: true, when?: WhenFn) => definePlugin({ id, titleKey: `${id}:title`, routes: [screen(id, home)], nav: [{ id, titleKey: `${id}:nav`, to: `/${id}`, icon: () => null, order: id.charCodeAt(0), when }] });
  const prefs = (saved: unknown): PreferencesStore => ({ get: async () => saved as never, set: async () => undefined });
  async function start(saved: unknown) {
    const kernel = new Kernel({ features: allFeatures(true), mac: false });
    kernel.load([withNav('alpha', true), withNav('beta'), withNav('gamma', undefined, () => false)], { complete: true });
    const homePage = await createHomePage(kernel, prefs(saved));
    kernel.provide(HomePage, homePage);
    const landing = async () => {
      const router = buildAppRouter(kernel, createMemoryHistory({ initialEntries: ['/'] }));
      await router.load();
      await expect.poll(() => router.state.location.pathname).not.toBe('/');
      return router.state.location.pathname;
    };
    return { homePage, landing, kernel };
  }

  it('"/" leads to the chosen entry, or to the home route without a choice or with one no plugin registers', async () => {
    expect(await (await start('/beta')).landing()).toBe('/beta');
    expect(await (await start(false)).landing()).toBe('/alpha');
    expect(await (await start('/gone')).landing()).toBe('/alpha');
  });

  it('a choice takes effect at once, and the choices are the entries the user reaches, in the rail\'s order', async () => {
    const { homePage, landing, kernel } = await start(false);
    expect(homePage.choices(kernel.snapshot()).map((c) => c.path)).toEqual(['/alpha', '/beta']);
    homePage.choose('/beta');
    expect(await landing()).toBe('/beta');
    homePage.choose(null);
    expect(await landing()).toBe('/alpha');
  });
});
