import type { FastifyInstance } from 'fastify';
import type { Profile } from '../../src/wire/profile';
import { forbidden, parseOrThrow } from '../errors';
import type { RouteContext } from './context';
import { IdParam } from './params';

interface UserRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  alias: string | null;
  email: string;
  company: string;
  organization_id: number;
  role_id: number;
  extension: string | null;
  level: 'reseller' | 'customer';
}

const C2D_PEER_UC = 2;

export function toProfile(u: UserRow): Profile {
  return {
    user_id: u.id,
    username: u.username,
    first_name: u.first_name,
    last_name: u.last_name,
    alias: u.alias,
    avatar_id: null,
    avatar_href: null,
    email: u.email,
    c2d_peer_type: C2D_PEER_UC,
    company: u.company,
    organization_id: u.organization_id,
    role_id: u.role_id,
    extension: u.extension,
    is_reseller_level: u.level === 'reseller',
    phone_numbers: u.extension
      ? [{ source: 'extension', source_id: null, extension: u.extension, number: null, is_primary: true }]
      : [],
  };
}

export function registerUserRoutes(app: FastifyInstance, { db, requireUserId }: RouteContext): void {
  app.get('/v1/users/:id', async (request): Promise<Profile> => {
    const me = await requireUserId(request);
    const { id } = parseOrThrow(IdParam, request.params, 'user id');
    // Joined on the caller's organisation: a missing user and another organisation's user look the same (403).
    const { rows } = await db.query<UserRow>(
      `SELECT t.id, t.username, t.first_name, t.last_name, t.alias, t.email, t.company,
              t.organization_id, t.role_id, t.extension, t.level
         FROM users t JOIN users me ON me.id = $2 AND me.organization_id = t.organization_id
        WHERE t.id = $1`,
      [id, me],
    );
    const user = rows[0];
    if (!user) throw forbidden('You are not authorized to view this user');
    return toProfile(user);
  });
}
