import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import {
  UserAddressInput,
  UserEmailListWire,
  UserPatchBody,
  UserPhoneListWire,
  userAddressProblems,
  userEmailProblems,
  userPatchProblems,
  userPhoneProblems,
  type ProfileProblem,
  type UserAddressListWire,
  type UserAddressWire,
  type UserPhoneWire,
} from '../../src/wire/contacts';
import type { Profile } from '../../src/wire/profile';
import { ApiError, forbidden, notFound, parseOrThrow } from '../errors';
import { callerSession } from '../auth/guard';
import { changePassword } from './password';
import {
  listAddresses,
  listEmails,
  listPhones,
  profileOf,
  readableUser,
  replaceEmails,
  replacePhones,
  updateAddress,
  updateUser,
  withWritableUser,
} from './repository';
import type { RouteContext } from '../context';
import { IdParam } from '../../src/wire/common';

const AddressParams = z.object({
  id: IdParam.shape.id,
  address_id: IdParam.shape.id,
});

/** Like the contact routes: 400 `validation_failed` with one {path, message} per problem, message = the code the form translates. */
function refuse(problems: ProfileProblem[], what: string): void {
  if (problems.length) throw new ApiError(400, 'validation_failed', `Invalid ${what}`, problems.map((p) => ({ path: p.path, message: p.code })));
}

/** An unknown key in a PATCH is named, so a misspelt field is not mistaken for a saved one. */
function parsePatch(body: unknown): UserPatchBody {
  const result = UserPatchBody.safeParse(body);
  if (result.success) return result.data;
  const unknownKeys = result.error.issues.flatMap((i) => (i.code === 'unrecognized_keys' ? i.keys : []));
  if (unknownKeys.length) {
    throw new ApiError(400, 'validation_failed', 'Invalid profile', unknownKeys.map((k) => ({ path: k, message: 'unknown_field' })));
  }
  return parseOrThrow(UserPatchBody, body, 'profile');
}

export function registerUserRoutes(app: FastifyInstance, { db, requireUserId, requireViewer }: RouteContext): void {
  const readable = async (request: { params: unknown }, me: number) => {
    const { id } = parseOrThrow(IdParam, request.params, 'user id');
    return readableUser(db, me, id);
  };

  app.get('/v1/users/:id', async (request): Promise<Profile> => {
    const me = await requireUserId(request);
    return profileOf(db, await readable(request, me));
  });

  app.patch('/v1/users/:id', async (request): Promise<Profile> => {
    const me = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'user id');
    const patch = parsePatch(request.body ?? {});
    if (patch.current_password !== undefined || patch.new_password !== undefined) {
      const { current_password, new_password, ...rest } = patch;
      // A password change is a request of its own, so a refused change never half-saves a name.
      if (Object.keys(rest).length) throw new ApiError(400, 'validation_failed', 'A password change cannot also change the profile', Object.keys(rest).map((k) => ({ path: k, message: 'not_with_password' })));
      if (current_password === undefined || new_password === undefined) {
        throw new ApiError(400, 'validation_failed', 'A password change needs current_password and new_password', [{ path: current_password === undefined ? 'current_password' : 'new_password', message: 'required' }]);
      }
      // Only one's own: an administrator resets a colleague's password elsewhere, not by knowing it.
      if (id !== me.userId) throw forbidden('Only the user may change their own password');
      await changePassword(db, me.userId, callerSession(request)!, current_password, new_password);
      return profileOf(db, await readableUser(db, me.userId, id));
    }
    return withWritableUser(db, me, id, async (tx) => {
      refuse(userPatchProblems(patch), 'profile');
      await updateUser(tx, id, patch);
      return profileOf(tx, await readableUser(tx, me.userId, id));
    });
  });

  app.get('/v1/users/:id/email-addresses', async (request) => {
    const me = await requireUserId(request);
    const user = await readable(request, me);
    return { items: await listEmails(db, user.id) };
  });

  app.put('/v1/users/:id/email-addresses', async (request) => {
    const me = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'user id');
    const body = parseOrThrow(UserEmailListWire, request.body, 'e-mail addresses');
    return withWritableUser(db, me, id, async (tx) => {
      refuse(userEmailProblems(body), 'e-mail addresses');
      await replaceEmails(tx, id, body.items);
      return { items: await listEmails(tx, id) };
    });
  });

  app.get('/v1/users/:id/phone-numbers', async (request): Promise<{ items: UserPhoneWire[] }> => {
    const me = await requireUserId(request);
    return { items: await listPhones(db, await readable(request, me)) };
  });

  app.put('/v1/users/:id/phone-numbers', async (request): Promise<{ items: UserPhoneWire[] }> => {
    const me = await requireViewer(request);
    const { id } = parseOrThrow(IdParam, request.params, 'user id');
    const body = parseOrThrow(UserPhoneListWire, request.body, 'phone numbers');
    return withWritableUser(db, me, id, async (tx, user) => {
      refuse(userPhoneProblems(body, user.extension), 'phone numbers');
      await replacePhones(tx, id, body.items);
      return { items: await listPhones(tx, user) };
    });
  });

  app.get('/v1/users/:id/addresses', async (request): Promise<UserAddressListWire> => {
    const me = await requireUserId(request);
    const user = await readable(request, me);
    return { items: await listAddresses(db, user.id) };
  });

  app.put('/v1/users/:id/addresses/:address_id', async (request): Promise<UserAddressWire> => {
    const me = await requireViewer(request);
    const { id, address_id } = parseOrThrow(AddressParams, request.params, 'address id');
    const body = parseOrThrow(UserAddressInput, request.body, 'address');
    return withWritableUser(db, me, id, async (tx) => {
      refuse(userAddressProblems(body), 'address');
      const saved = await updateAddress(tx, id, address_id, body);
      if (!saved) throw notFound('This user has no such address');
      return saved;
    });
  });
}
