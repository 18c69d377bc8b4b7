import * as z from 'zod/mini';

export { ROLE, canEditUsers, type RoleId } from './roles';

export const ProfilePhoneNumber = z.object({
  source: z.enum(['personal', 'extension']),
  source_id: z.nullable(z.int()),
  extension: z.nullable(z.string()),
  number: z.nullable(z.string()),
  is_primary: z.boolean(),
});

export const Profile = z.object({
  user_id: z.int(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  alias: z.nullable(z.string()),
  avatar_id: z.nullable(z.int()),
  avatar_href: z.nullable(z.string()),
  email: z.string(),
  /** phone 1, UC 2, mobile 3 */
  c2d_peer_type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  company: z.string(),
  organization_id: z.int(),
  role_id: z.int().check(z.gte(1), z.lte(4)),
  extension: z.nullable(z.string()),
  /** True when the user's level equals the organisation's reseller level. */
  is_reseller_level: z.boolean(),
  phone_numbers: z.array(ProfilePhoneNumber),
});
export type Profile = z.infer<typeof Profile>;
