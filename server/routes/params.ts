import { z } from 'zod';

const MAX_INT4 = 2 ** 31 - 1;

/** A positive database id in the path; larger than Postgres' integer would be a 500, so it is a 400 here. */
export const IdParam = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'Must be a positive integer id')
    .transform(Number)
    .refine((n) => n <= MAX_INT4, 'Id out of range'),
});
