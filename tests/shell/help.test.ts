// @vitest-environment jsdom
import { afterEach, expect, it, vi } from 'vitest';
import { allFeatures, Kernel, Session, type SessionInfo } from '../../src/kernel';
import { createShellPlugin } from '../../src/shell/shellPlugin';

afterEach(() => vi.restoreAllMocks());

it('"Help" opens the help site the server gives this user (reseller and customer users differ), in a new tab, from the palette and the account menu', async () => {
  const open = vi.spyOn(window, 'open').mockReturnValue(null);
  const kernel = new Kernel({ features: allFeatures(true), mac: false });
  kernel.load([createShellPlugin({ setLanguage: async () => undefined })]);
  kernel.provide(Session, { userId: 1, config: { help_url: 'https://help.example.test/partners' } } as unknown as SessionInfo);
  expect(kernel.menus.list().some((m) => m.item.menu === 'profileMenu' && m.item.command === 'shell.help')).toBe(true);
  await kernel.run('shell.help', {}, 'palette');
  expect(open).toHaveBeenCalledWith('https://help.example.test/partners', '_blank', 'noopener,noreferrer');
});
