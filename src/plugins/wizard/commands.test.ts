import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommandContext } from '../../kernel';
import { wizardCommands } from './commands';
import { resetWizardState, usersWanted, wizardState } from './state';

const user = (Username: string, Enabled: 'Yes' | 'No', HasPassword: boolean) => ({ Username, FirstName: 'Abby', LastName: 'Eriksen', Enabled, Extension: '2001', _service_user_id: null, HasPassword });
const choices = () => {
  const arg = wizardCommands.commands.find((c) => c.id === 'wizard.passwordLink')!.args![0]!;
  return arg.options!('', {} as CommandContext);
};

afterEach(() => {
  resetWizardState();
  usersWanted.load = null;
});

describe('"Wizard ▸ Set-password link" asks which user', () => {
  it('offers the enabled users who have no password yet, by username', () => {
    wizardState.users = [user('abby.e2e', 'Yes', false), user('rita', 'Yes', true), user('off.e2e', 'No', false)];
    expect(choices().map((o) => [o.label, o.value, o.detail])).toEqual([['abby.e2e', 'abby.e2e', 'Abby Eriksen']]);
  });
  it('with the users not loaded (away from the configure-users step), asks for them', () => {
    usersWanted.load = vi.fn();
    expect(choices()).toEqual([]);
    expect(usersWanted.load).toHaveBeenCalledOnce();
  });
});
