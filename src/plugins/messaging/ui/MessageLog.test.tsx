// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import boot from '../locales/en.json';
import type { ChatMessage } from '../model/chat';
import { chat, resetChat } from '../state';
import strings from '../strings/en.json';
import { MessageLog } from './MessageLog';

const engine = vi.hoisted(() => ({ retry: vi.fn(), loadOlder: vi.fn() }));
vi.mock('../engine', () => ({ currentEngine: () => engine }));
vi.mock('../uiStrings', () => ({ uiStrings: () => Promise.resolve() }));
// Not the texts store: it brings Strophe, which replaces a test's document with its own.
vi.mock('../texts/api', () => ({ cutoffs: () => ({}) }));

const BOB = 'bob@uc.local';
const msg = (id: string, body: string, status: ChatMessage['status']): ChatMessage => ({ id, stanzaId: null, from: 'alice@uc.local', body, timestamp: Date.now(), delayed: false, archived: false, mine: true, status, media: null });

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { messaging: { ...boot, ...strings } } }, interpolation: { escapeValue: false } });
  Element.prototype.scrollTo = () => undefined;
});
beforeEach(() => {
  resetChat();
  vi.clearAllMocks();
  chat.sessions[BOB] = {
    jid: BOB, type: 'chat', name: 'Bob Martinez', subject: '', members: [], history: { first: null, last: null, count: null, complete: true, pending: false }, readPosition: 0, unread: 0, muted: false, peerComposing: null, input: '', lastActivity: 0, phase: 'hydrated',
    messages: [msg('a', 'on its way', null), msg('b', 'gave up waiting', 'failed'), msg('c', 'made it', 'delivered')],
  };
});
afterEach(() => cleanup());

describe('the message log', () => {
  it('shows waiting messages as Sending… and unsent ones as Not sent with a Retry named after the message', () => {
    render(<MessageLog jid={BOB} name="Bob Martinez" lang="en" />);
    const rows = within(screen.getByRole('list', { name: 'Messages with Bob Martinez' })).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('on its waySending…'), expect.stringContaining('gave up waitingNot sentRetry'), expect.stringContaining('made itDelivered')]);
    // Only the unsent one has a Retry; a button in the row, so Tab reaches it.
    expect(screen.getAllByRole('button')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Retry: gave up waiting' }));
    expect(engine.retry).toHaveBeenCalledWith(BOB, 'b');
  });
});
