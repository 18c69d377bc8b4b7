// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { proxy, subscribe } from 'valtio';
import { afterEach, expect, it } from 'vitest';
import { allFeatures, definePlugin, Kernel, KernelProvider, useCommand } from './index';

afterEach(cleanup);

function Bound() {
  const b = useCommand('list.callBack');
  return <button disabled={b.enablement !== true}>{b.enablement === true ? 'Call back' : b.enablement.reasonKey}</button>;
}

it('a bound button follows a change of plugin state its enablement reads, with no context key involved', async () => {
  // As the history plugin does: the selection lives in its own store, which it declares as read by
  // its commands (commandsRead); nothing is published to the kernel's context for it.
  const state = proxy({ selected: null as string | null });
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([
    definePlugin({
      id: 'list',
      titleKey: 'list',
      commands: [{ id: 'list.callBack', titleKey: 'x', when: (c) => c.route.startsWith('/'), enabled: () => (state.selected ? true : { reasonKey: 'noSelection' }), run: () => undefined }],
      activate: (ctx) => ctx.commandsRead((onChange) => subscribe(state, onChange)),
    }),
  ]);
  const keysBefore = JSON.stringify(kernel.context.keys);
  render(
    <KernelProvider kernel={kernel}>
      <Bound />
    </KernelProvider>,
  );
  expect(screen.getByRole('button').textContent).toBe('noSelection');
  await act(async () => {
    state.selected = '42';
    await Promise.resolve();
  });
  expect(screen.getByRole('button', { name: 'Call back' })).toHaveProperty('disabled', false);
  expect(JSON.stringify(kernel.context.keys)).toBe(keysBefore);
  // Declared stores are let go with the plugin.
  kernel.dispose();
  await act(async () => {
    state.selected = null;
    await Promise.resolve();
  });
});

it('without the declaration the button would not follow: commandsRead is what tells it', async () => {
  const state = proxy({ selected: null as string | null });
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([
    definePlugin({
      id: 'list',
      titleKey: 'list',
      commands: [{ id: 'list.callBack', titleKey: 'x', enabled: () => (state.selected ? true : { reasonKey: 'noSelection' }), run: () => undefined }],
    }),
  ]);
  render(
    <KernelProvider kernel={kernel}>
      <Bound />
    </KernelProvider>,
  );
  await act(async () => {
    state.selected = '42';
    await Promise.resolve();
  });
  expect(screen.getByRole('button').textContent).toBe('noSelection');
});
