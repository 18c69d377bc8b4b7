import { describe, expect, it } from 'vitest';
import { chatCutoffKind, withinCutoff } from './cutoff';

const DAY = 86_400_000;
const now = Date.parse('2026-11-24T12:00:00Z');
const messages = [{ id: 'old', timestamp: now - 100 * DAY }, { id: 'month', timestamp: now - 30 * DAY }, { id: 'today', timestamp: now - 1000 }];
const ids = (list: { id: string }[]) => list.map((m) => m.id);

describe('chat message cut-off', () => {
  it('hides messages older than the kind’s cut-off, 90 days by default', () => {
    expect(ids(withinCutoff(messages, 'chat', {}, now))).toEqual(['month', 'today']);
    expect(ids(withinCutoff(messages, 'chat', { chat: 7 }, now))).toEqual(['today']);
    // Another kind's setting does not apply.
    expect(ids(withinCutoff(messages, 'group_chat', { chat: 7 }, now))).toEqual(['month', 'today']);
  });

  it('730 days marks no cut-off at all', () => {
    expect(ids(withinCutoff(messages, 'group_chat', { group_chat: 730 }, now))).toEqual(['old', 'month', 'today']);
  });

  it('groups use the group_chat kind, one-to-one chats the chat kind', () => {
    expect(chatCutoffKind('groupchat')).toBe('group_chat');
    expect(chatCutoffKind('chat')).toBe('chat');
  });
});
