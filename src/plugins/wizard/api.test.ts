import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Api, ApiError, type ServiceLookup } from '../../kernel';
import { issuePasswordLink, saveMapping } from './api';
import { resetWizardState, wizardState } from './state';

const put = vi.fn();
const services = { get: (key: unknown) => (key === Api ? { put } : undefined) } as unknown as ServiceLookup;
const user = (Username: string, sid: number | null) => ({ Username, FirstName: 'F', LastName: 'L', Enabled: 'Yes' as const, Extension: '2001', _service_user_id: sid, HasPassword: true });

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

describe('the set-password link', () => {
  const post = vi.fn();
  const withPost = { get: (key: unknown) => (key === Api ? { post } : undefined) } as unknown as ServiceLookup;
  const TOKEN = 'A'.repeat(43);
  beforeEach(() => void post.mockReset());

  it('asks the server for the user and keeps the link to show: this origin, the token in the fragment', async () => {
    post.mockResolvedValue({ username: 'lea.e2e', token: TOKEN, expires_at: '2026-12-05T10:00:00.000Z' });
    expect(await issuePasswordLink(withPost, 'lea.e2e', 'https://uc.example')).toBe(true);
    expect(post).toHaveBeenCalledWith('/v1/organizations/7/users/lea.e2e/password-setup', undefined, expect.anything());
    expect(wizardState.link).toEqual({ username: 'lea.e2e', url: `https://uc.example/set-password#${TOKEN}`, expiresAt: '2026-12-05T10:00:00.000Z' });
    expect(wizardState.linkFor).toBeNull();
  });

  it('a refusal says the server’s words; no link is shown', async () => {
    post.mockImplementation(async () => {
      throw new ApiError(409, { error: 'has_password', message: 'lea.e2e already has a password' });
    });
    expect(await issuePasswordLink(withPost, 'lea.e2e', 'https://uc.example')).toBe(false);
    expect(wizardState.link).toBeNull();
    expect(wizardState.linkErrorKey).toBe('link.refused');
    expect(wizardState.linkErrorValues).toEqual({ message: 'lea.e2e already has a password' });
  });
});
