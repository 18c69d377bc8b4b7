import { afterEach, describe, expect, it } from 'vitest';
import type { ContextSnapshot, PluginContext } from '../../kernel';
import { ROLE } from '../../wire/roles';
import { CUSTOM_STATUS_MAX, customStatusProblem, messagingCommands } from './commands';
import { later } from './later';
import { emptyHistory } from './model/chat';
import { chat, resetChat } from './state';

describe('custom status text', () => {
  it('needs some words, at most 100 characters once trimmed', () => {
    expect(customStatusProblem('')).toBe('messaging:customStatus.empty');
    expect(customStatusProblem('   ')).toBe('messaging:customStatus.empty');
    expect(customStatusProblem('Workshop until 3')).toBeNull();
    expect(customStatusProblem(` ${'x'.repeat(CUSTOM_STATUS_MAX)} `)).toBeNull();
    expect(customStatusProblem('x'.repeat(CUSTOM_STATUS_MAX + 1))).toBe('messaging:customStatus.tooLong');
  });
});

describe('messaging commands', () => {
  it('keeps its hotkeys, in the order the shortcuts dialog lists them, all global', () => {
    expect(messagingCommands.hotkeys.map((h) => [h.command, h.keys, h.scope])).toEqual([
      ['messaging.go', 'g t', undefined],
      ['messaging.newChat', 'Shift+C', undefined],
      ['messaging.nextUnread', 'g u', undefined],
      ['messaging.texts.go', 'g x', undefined],
      ['messaging.texts.new', 'Shift+X', undefined],
      ['messaging.focusInput', 'Alt+i', undefined],
    ]);
  });

  it("texts' commands keep their ids and title keys; none exists for the limited-access role", () => {
    const texts = messagingCommands.commands.filter((c) => c.id.startsWith('messaging.texts.'));
    expect(texts.map((c) => [c.id, c.titleKey])).toEqual([
      ['messaging.texts.go', 'messaging:texts.commands.go'],
      ['messaging.texts.toggleMute', 'messaging:texts.commands.toggleMute'],
      ['messaging.texts.new', 'messaging:texts.commands.new'],
      ['messaging.texts.text', 'messaging:texts.commands.text'],
    ]);
    const ctx = (roleId: number) => ({ roleId, route: '/', keys: {} }) as unknown as ContextSnapshot;
    expect(messagingCommands.commands.filter((c) => c.when?.(ctx(ROLE.LIMITED_ACCESS)))).toEqual([]);
    expect(messagingCommands.commands.every((c) => c.when?.(ctx(ROLE.STANDARD_USER)))).toBe(true);
  });
});

describe('what the frame learns of chat for its commands', () => {
  afterEach(resetChat);
  /** valtio tells its subscribers after the current task's microtasks. */
  const settled = () => new Promise((r) => setTimeout(r, 0));

  it('is what the commands read (connection, open conversation, sessions, mute, unread), not each message, receipt, chat state or keystroke', async () => {
    // The store the plugin hands the kernel (which re-renders menus, bound buttons and the palette on each call).
    let read: ((onChange: () => void) => () => void) | undefined;
    const ctx = { commandsRead: (s: typeof read) => void (read = s), services: { maybe: () => undefined } } as unknown as PluginContext;
    later.activate!(ctx);
    chat.status = 'connected';
    chat.sessions['bob@uc.local'] = {
      jid: 'bob@uc.local', type: 'chat', name: 'Bob', subject: '', members: [], messages: [], history: emptyHistory(),
      readPosition: 0, unread: 0, muted: false, peerComposing: null, input: '', lastActivity: 0, phase: 'hydrated',
    };
    await settled();
    let told = 0;
    const stop = read!(() => told++);
    const s = chat.sessions['bob@uc.local']!;
    s.peerComposing = 'composing';
    s.input = 'Hello';
    s.messages = [...s.messages, { id: 'm1', stanzaId: null, from: 'bob@uc.local', body: 'Hi', timestamp: 1, delayed: false, archived: false, mine: false, status: null, media: null }];
    s.lastActivity = 1;
    s.messages[0]!.status = 'received';
    await settled();
    expect(told).toBe(0);

    s.unread = 1;
    await settled();
    expect(told).toBe(1);
    s.unread = 2;
    await settled();
    expect(told, 'still some unread: nothing a command reads changed').toBe(1);
    s.muted = true;
    await settled();
    expect(told).toBe(2);
    chat.status = 'disconnected';
    await settled();
    expect(told).toBe(3);
    stop();
  });
});
