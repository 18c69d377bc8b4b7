// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { ConnectionBanner } from '../../src/shell/ConnectionBanner';
import shell from '../../src/shell/locales/en.json';
import { connections } from '../../src/shell/services';
import { LiveRegions } from '../../src/shell/LiveRegions';
import { Announcer } from '../../src/shell/announcer';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { shell: { ...shell, chat: 'Chat' } } }, interpolation: { escapeValue: false } });
});

afterEach(cleanup);

/**
 * Listens as a virtual screen reader does (@guidepup/virtual-screen-reader): for each change of an
 * atomic live region, a tick later, the whole region is read.
 */
function listen(region: Element): string[] {
  const heard: string[] = [];
  new MutationObserver((records) =>
    setTimeout(() => {
      for (const _ of records) if (region.textContent) heard.push(region.textContent);
    }),
  ).observe(region, { childList: true, characterData: true, subtree: true });
  return heard;
}

const settle = () => act(() => new Promise<void>((r) => setTimeout(r, 20)));

it('says each announcement once, whether it comes from a click, a key or the network', async () => {
  const announcer = new Announcer();
  const { container } = render(<LiveRegions announcer={announcer} />);
  const polite = container.querySelector('[aria-live="polite"]')!;
  const heard = listen(polite);
  const button = document.createElement('button');
  container.append(button);
  button.addEventListener('click', () => announcer.announce('New message from Alice Nguyen: lunch?'));
  button.addEventListener('keydown', () => announcer.announce('Saved'));

  await act(async () => void button.click());
  await settle();
  expect(heard).toEqual(['New message from Alice Nguyen: lunch?']);
  await act(async () => void button.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true })));
  await settle();
  announcer.announce('New message from Bob Martinez: on my way');
  await settle();
  // The same words again are a new announcement, said again.
  announcer.announce('New message from Bob Martinez: on my way');
  await settle();
  expect(heard).toEqual(['New message from Alice Nguyen: lunch?', 'Saved', 'New message from Bob Martinez: on my way', 'New message from Bob Martinez: on my way']);
});

it('says an assertive announcement in the alert region, once', async () => {
  const announcer = new Announcer();
  const { container } = render(<LiveRegions announcer={announcer} />);
  const heard = listen(container.querySelector('[aria-live="assertive"]')!);
  announcer.announce('Incoming call from Bob Martinez', 'assertive');
  await settle();
  expect(heard).toEqual(['Incoming call from Bob Martinez']);
});

it('the connection banner says each change of state once', async () => {
  const view = { id: 'chat', labelKey: 'shell:chat', state: 'connecting', phase: 'connecting', nextRetryAt: null, again: false } as const;
  connections.views.chat = { ...view };
  render(<ConnectionBanner />);
  const heard = listen(await screen.findByRole('status'));
  await act(async () => void (connections.views.chat!.phase = 'success'));
  await settle();
  expect(heard).toEqual(['Chat is connected.']);
  delete connections.views.chat;
});
