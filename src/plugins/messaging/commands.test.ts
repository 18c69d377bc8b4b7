import { describe, expect, it } from 'vitest';
import type { ContextSnapshot } from '../../kernel';
import { ROLE } from '../../wire/roles';
import { CUSTOM_STATUS_MAX, customStatusProblem, messagingCommands } from './commands';

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
      ['messaging.texts.new', 'messaging:texts.commands.new'],
      ['messaging.texts.text', 'messaging:texts.commands.text'],
    ]);
    const ctx = (roleId: number) => ({ roleId, route: '/', keys: {} }) as unknown as ContextSnapshot;
    expect(messagingCommands.commands.filter((c) => c.when?.(ctx(ROLE.LIMITED_ACCESS)))).toEqual([]);
    expect(messagingCommands.commands.every((c) => c.when?.(ctx(ROLE.STANDARD_USER)))).toBe(true);
  });
});
