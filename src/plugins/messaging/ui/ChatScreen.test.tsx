// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import boot from '../locales/en.json';
import { emptyHistory, messagePreview, type ChatMessage } from '../model/chat';
import { chat, resetChat, type ChatSessionState } from '../state';
import strings from '../strings/en.json';
import ChatScreen from './ChatScreen';

vi.mock('@tanstack/react-router', () => ({ useNavigate: () => vi.fn(), useParams: () => ({}), useRouterState: () => '/chat' }));
vi.mock('../engine', () => ({ currentEngine: () => null }));
// Not the engine's code: it brings Strophe, which replaces a test's document with its own.
vi.mock('../engine/ChatEngine', () => ({ MediaError: class MediaError extends Error {} }));
vi.mock('../uiStrings', () => ({ uiStrings: () => Promise.resolve() }));
vi.mock('../texts/api', () => ({ cutoffs: () => ({}) }));
// Called once per row each time a row of the bar is rendered: counts the rows rendered.
vi.mock('../model/chat', async (original) => {
  const m = await original<typeof import('../model/chat')>();
  return { ...m, messagePreview: vi.fn(m.messagePreview) };
});

const msg = (id: string, from: string, body: string, timestamp: number): ChatMessage => ({ id, stanzaId: null, from, body, timestamp, delayed: false, archived: false, mine: false, status: null, media: null });
function session(jid: string, name: string, last: ChatMessage): ChatSessionState {
  return { jid, type: 'chat', name, subject: '', members: [], messages: [last], history: emptyHistory(), readPosition: 0, unread: 0, muted: false, peerComposing: null, input: '', lastActivity: last.timestamp, phase: 'hydrated' };
}

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { messaging: { ...boot, ...strings } } }, interpolation: { escapeValue: false } });
});
beforeEach(() => {
  resetChat();
  chat.status = 'connected';
  chat.me = 'alice@uc.local';
  const people: [string, string][] = [['bob', 'Bob Martinez'], ['carol', 'Carol Diaz'], ['dave', 'Dave Kim']];
  for (const [i, [user, name]] of people.entries()) {
    chat.sessions[`${user}@uc.local`] = session(`${user}@uc.local`, name, msg(`${user}-1`, `${user}@uc.local`, `Hello from ${name}`, 1000 + i));
  }
});
afterEach(() => cleanup());

describe('the messages bar', () => {
  it('renders again only the row of the conversation a message arrived in, which moves to the top with its preview', async () => {
    render(<ChatScreen />);
    const bar = await screen.findByRole('grid', { name: 'Conversations' });
    expect(within(bar).getAllByRole('row').map((r) => r.textContent)).toEqual([
      expect.stringContaining('Hello from Dave Kim'),
      expect.stringContaining('Hello from Carol Diaz'),
      expect.stringContaining('Hello from Bob Martinez'),
    ]);
    vi.mocked(messagePreview).mockClear();

    await act(async () => {
      const s = chat.sessions['bob@uc.local']!;
      s.messages = [...s.messages, msg('bob-2', 'bob@uc.local', 'Are you in?', 2000)];
      s.lastActivity = 2000;
      s.unread = 1;
    });
    await expect.poll(() => within(bar).getAllByRole('row')[0]!.textContent).toContain('Are you in?');
    expect(within(bar).getAllByRole('row').map((r) => r.textContent)).toEqual([
      expect.stringContaining('Are you in?'),
      expect.stringContaining('Hello from Dave Kim'),
      expect.stringContaining('Hello from Carol Diaz'),
    ]);
    expect(vi.mocked(messagePreview).mock.calls.map(([m]) => m.body)).toEqual(['Are you in?']);
  });
});
