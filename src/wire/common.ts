import * as z from 'zod/mini';

/*
 * Wire schemas use zod/mini: the client validates responses with the same schemas as the server
 * validates requests, and mini tree-shakes to a few kB where classic zod costs ~50 kB gzip.
 */

/** Every 4xx/5xx body of the API. `error` is machine-readable, `message` is for people. */
export const ApiErrorBody = z.object({
  error: z.string(),
  message: z.string(),
  details: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
  /** With a 429: seconds before trying again (also the Retry-After header). */
  retry_after: z.optional(z.int()),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export { HTTP } from './http';

const INT4_MAX = 2 ** 31 - 1;
/** A row id: PostgreSQL's integer is 32-bit, and a larger number must be refused here (400), not by the database (500). */
export const DbId = z.int().check(z.gte(1), z.lte(INT4_MAX));
/** A row id in a URL path ("12"): digits, then a DbId; anything else is a 400 before the database sees it. */
export const IdParam = z.object({
  id: z.pipe(
    z.string().check(z.regex(/^[1-9]\d{0,9}$/, 'Must be a positive integer id')),
    z.pipe(z.transform(Number), z.number().check(z.lte(INT4_MAX, 'Id out of range'))),
  ),
});
/** A whole number an integer column holds (row ids a client sends as ≤ 0 or null for a new row). */
export const Int4 = z.int().check(z.gte(-INT4_MAX - 1), z.lte(INT4_MAX));

export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;
/** The error text for a sort direction other than asc/desc (the product's wording, kept verbatim). */
export const SORT_DIRECTION_ERROR = 'Sort direction not supported';

/** A whole number from a query string ("50" → 50) within bounds. */
export const queryInt = (min: number, max: number, fallback: number) =>
  z._default(z.pipe(z.coerce.number(), z.int().check(z.gte(min), z.lte(max))), fallback);

export const Paging = z.object({
  offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0),
  limit: queryInt(1, 500, 50),
});

export interface PageOf<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}
