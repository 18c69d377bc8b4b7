import * as z from 'zod/mini';

/** `GET /v1/e911`: the emergency address on file for the user (404: none). */
export const E911Address = z.object({
  street1: z.string(),
  street2: z.string(),
  city: z.string(),
  zip_code: z.string(),
  state: z.string(),
  country: z.string(),
  county: z.string(),
});
export type E911Address = z.infer<typeof E911Address>;

/** `GET /v1/e911?user_id=`: whose address; absent means the caller's own. */
export const E911Query = z.object({
  user_id: z.optional(z.pipe(z.string().check(z.regex(/^[1-9]\d{0,9}$/, 'Must be a positive integer id')), z.pipe(z.transform(Number), z.int().check(z.lte(2 ** 31 - 1, 'Id out of range'))))),
});

export const REGION_STATUSES = ['active', 'inactive'] as const;

export const NetworkTestServer = z.object({
  id: z.int(),
  availability_region_id: z.int(),
  hostname: z.string(),
  boot_lib_path: z.string(),
});

/** The specification's entity "Availability region". */
export const AvailabilityRegion = z.object({
  id: z.int(),
  name: z.string(),
  description: z.string(),
  display_name: z.string(),
  status: z.enum(REGION_STATUSES),
  network_test_server: z.nullable(NetworkTestServer),
});
export type AvailabilityRegion = z.infer<typeof AvailabilityRegion>;

/** The organisation's regions, and which of them the caller is in (null: none assigned). */
export const AvailabilityRegionList = z.object({
  items: z.array(AvailabilityRegion),
  user_region_id: z.nullable(z.int()),
});
export type AvailabilityRegionList = z.infer<typeof AvailabilityRegionList>;

export const AvailabilityRegionQuery = z.object({
  status: z.optional(z.enum(REGION_STATUSES)),
});
