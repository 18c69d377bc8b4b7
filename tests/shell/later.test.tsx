// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { lazy, useState } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { Later } from '../../src/shell/Later';

afterEach(cleanup);

function Field() {
  const [value, setValue] = useState('typed before');
  return <input aria-label="Username" value={value} onChange={(e) => setValue(e.target.value)} />;
}

it('a part that cannot load leaves the rest of the page as it was', async () => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const Broken = lazy(() => Promise.reject(new Error('Failed to fetch dynamically imported module')));
  render(
    <main>
      <Field />
      <Later fallback={<span>picker space</span>}>
        <Broken />
      </Later>
    </main>,
  );
  await expect.poll(() => error.mock.calls.some((c) => c[0] === 'a part of the page did not load')).toBe(true);
  expect(screen.getByRole('textbox', { name: 'Username' })).toHaveProperty('value', 'typed before');
  expect(screen.getByText('picker space')).toBeTruthy();
  error.mockRestore();
});

it('shows the part once it has loaded', async () => {
  const Part = lazy(async () => ({ default: () => <p>loaded part</p> }));
  render(
    <Later>
      <Part />
    </Later>,
  );
  expect(await screen.findByText('loaded part')).toBeTruthy();
});
