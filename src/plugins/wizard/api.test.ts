import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Api, ApiError, type ServiceLookup } from '../../kernel';
import { saveMapping } from './api';
import { resetWizardState, wizardState } from './state';

const put = vi.fn();
const services = { get: (key: unknown) => (key === Api ? { put } : undefined) } as unknown as ServiceLookup;
const user = (Username: string, sid: number | null) => ({ Username, FirstName: 'F', LastName: 'L', Enabled: 'Yes' as const, Extension: '2001', _service_user_id: sid });

beforeEach(() => {
  resetWizardState();
  put.mockReset();
  wizardState.info = { active: true, completed: false, step: 3, resellerId: 7, customerId: 'C-1', confirmed: true, hasServiceUser: false };
});

describe('the configure-users save', () => {
  it('sends Username and _service_user_id of the rows whose choice changed, and takes the server’s list', async () => {
    wizardState.users = [user('a', null), user('b', 5), user('c', 6)];
    wizardState.mapping = { a: 9, b: 5, c: null };
    put.mockResolvedValue({ items: [user('a', 9), user('b', 5), user('c', null)] });
    expect(await saveMapping(services)).toBe(true);
    expect(put).toHaveBeenCalledWith('/v1/organizations/7/users', [{ Username: 'a', _service_user_id: 9 }, { Username: 'c', _service_user_id: null }], expect.anything());
    expect(wizardState.users?.[0]?._service_user_id).toBe(9);
  });
  it('with nothing changed, or the users not loaded, there is nothing to send (Finish is not held up)', async () => {
    expect(await saveMapping(services)).toBe(true);
    wizardState.users = [user('a', 3)];
    wizardState.mapping = { a: 3 };
    expect(await saveMapping(services)).toBe(true);
    expect(put).not.toHaveBeenCalled();
  });
  it('a refusal is shown and the choices are kept', async () => {
    wizardState.users = [user('a', null)];
    wizardState.mapping = { a: 4 };
    put.mockRejectedValue(new ApiError(400, { error: 'invalid_mapping', message: 'no' }));
    expect(await saveMapping(services)).toBe(false);
    expect(wizardState.usersErrorKey).toBe('users.refused');
    expect(wizardState.mapping).toEqual({ a: 4 });
  });
});
