// @vitest-environment jsdom
import { createMemoryHistory } from '@tanstack/react-router';
import { expect, it } from 'vitest';
import { allFeatures, BootError, definePlugin, Kernel, type RouteContribution } from '../../src/kernel';
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
