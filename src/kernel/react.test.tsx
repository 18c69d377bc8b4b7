// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { allFeatures, definePlugin, Kernel, KernelProvider, useCommand } from './index';

afterEach(cleanup);

function Bound() {
  const b = useCommand('list.callBack');
  return <button disabled={b.enablement !== true}>{b.enablement === true ? 'Call back' : b.enablement.reasonKey}</button>;
}

it('a bound button follows its command when the plugin publishes a change its enablement does not read from the context', async () => {
  // As the history plugin does: the selection lives in its own state and is published as a context
  // key so that bound buttons re-evaluate; the enablement reads the state itself.
  const state = { selected: null as string | null };
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  let publish!: () => void;
  kernel.load([
    definePlugin({
      id: 'list',
      titleKey: 'list',
      commands: [{ id: 'list.callBack', titleKey: 'x', when: (c) => c.route.startsWith('/'), enabled: () => (state.selected ? true : { reasonKey: 'noSelection' }), run: () => undefined }],
      activate: (ctx) => {
        publish = () => ctx.setContextKey('selectedId', state.selected);
        publish();
      },
    }),
  ]);
  render(
    <KernelProvider kernel={kernel}>
      <Bound />
    </KernelProvider>,
  );
  expect(screen.getByRole('button').textContent).toBe('noSelection');
  state.selected = '42';
  await act(async () => publish());
  expect(screen.getByRole('button', { name: 'Call back' })).toHaveProperty('disabled', false);
});
