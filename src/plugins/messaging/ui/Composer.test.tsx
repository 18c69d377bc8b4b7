// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { createRef } from 'react';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import boot from '../locales/en.json';
import { chat, resetChat } from '../state';
import strings from '../strings/en.json';
import { Composer } from './Composer';

const engine = vi.hoisted(() => ({
  send: vi.fn((jid: string) => void (chat.sessions[jid]!.input = '')),
  typing: vi.fn((jid: string, v: string) => void (chat.sessions[jid]!.input = v)),
}));
vi.mock('../engine', () => ({ currentEngine: () => engine }));
// Not Strophe: in a test it replaces the page's document with its own XML one.
vi.mock('../engine/ChatEngine', () => ({ MediaError: class MediaError extends Error {} }));
vi.mock('../uiStrings', () => ({ uiStrings: () => Promise.resolve() }));

const BOB = 'bob@uc.local';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'en', resources: { en: { messaging: { ...boot, ...strings } } }, interpolation: { escapeValue: false } });
});
beforeEach(() => {
  resetChat();
  vi.clearAllMocks();
  chat.sessions[BOB] = { jid: BOB, type: 'chat', name: 'Bob Martinez', subject: '', members: [], messages: [], history: { first: null, last: null, count: null, complete: true, pending: false }, readPosition: 0, unread: 0, muted: false, peerComposing: null, input: '', lastActivity: 0, phase: 'hydrated' };
});
afterEach(() => cleanup());

const box = (connected: boolean) => <Composer jid={BOB} name="Bob Martinez" connected={connected} inputRef={createRef()} lang="en" />;

describe('the message box while chat is disconnected', () => {
  it('stays editable with the focus and what was typed; Enter still sends (the engine queues it); the reason describes the box', () => {
    const { rerender } = render(box(true));
    const input = screen.getByRole('textbox', { name: 'Message to Bob Martinez' }) as HTMLTextAreaElement;
    act(() => input.focus());
    fireEvent.change(input, { target: { value: 'half a sen' } });

    // The connection drops.
    rerender(box(false));
    expect(input.disabled).toBe(false);
    expect(document.activeElement).toBe(input);
    expect(input.value).toBe('half a sen');
    expect(input.getAttribute('aria-describedby')?.split(' ')).toContain('chat-offline-note');
    expect(document.getElementById('chat-offline-note')?.textContent).toBe(strings.chat.offlineQueued);

    fireEvent.change(input, { target: { value: 'half a sentence' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(engine.send).toHaveBeenCalledWith(BOB, 'half a sentence');
    expect(input.value).toBe('');
        // Files need the server now: attaching waits for the connection.
    expect((screen.getByRole('button', { name: strings.media.attach }) as HTMLButtonElement).disabled).toBe(true);

    // Back: the note goes, the focus never moved.
    rerender(box(true));
    expect(document.activeElement).toBe(input);
    expect(document.getElementById('chat-offline-note')).toBeNull();
  });
});
