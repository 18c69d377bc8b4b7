/*
 * Response checks for the boot path, without zod. zod/mini costs ~8–9 kB gzip of the first screen's
 * JavaScript for the handful of responses a page needs before it can paint (token, profile,
 * configuration, hotkeys, the first history page); these checks cost under 1 kB. They accept and
 * return exactly what the zod wire schemas accept and return (objects keep only their declared
 * keys), which bootResponses.test.ts verifies against those schemas. Everything later (lazy
 * screens, the server) keeps using the zod schemas.
 */

/** Accepts a value (returning what the zod schema's parse would) or throws a WireError. */
export type Check<T> = (value: unknown, path: string) => T;

export class WireError extends Error {
  constructor(path: string, expected: string) {
    super(`Invalid response at ${path || '(root)'}: expected ${expected}`);
    this.name = 'WireError';
  }
}

const is =
  <T>(test: (v: unknown) => boolean, expected: string): Check<T> =>
  (v, path) => {
    if (!test(v)) throw new WireError(path, expected);
    return v as T;
  };

export const str: Check<string> = is((v) => typeof v === 'string', 'string');
export const bool: Check<boolean> = is((v) => typeof v === 'boolean', 'boolean');
/** zod's `z.int()`: a safe integer. */
export const int: Check<number> = is(Number.isSafeInteger, 'integer');

export const intIn = (min: number, max: number): Check<number> =>
  is((v) => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max, `integer in ${min}..${max}`);

export const strMax = (max: number): Check<string> => is((v) => typeof v === 'string' && v.length <= max, `string of at most ${max}`);

/** One of the given literals (zod's `z.enum`, `z.literal` and unions of literals). */
export const oneOf = <const T extends readonly (string | number)[]>(...values: T): Check<T[number]> =>
  is((v) => values.includes(v as T[number]), values.join('|'));

export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (v, path) =>
    v === null ? null : check(v, path);

/** zod's `z.optional` as an object's key: absent or undefined stays so; anything else is checked. */
export const optional =
  <T>(check: Check<T>): Check<T | undefined> =>
  (v, path) =>
    v === undefined ? undefined : check(v, path);

export const array =
  <T>(check: Check<T>): Check<T[]> =>
  (v, path) => {
    if (!Array.isArray(v)) throw new WireError(path, 'array');
    return v.map((item, i) => check(item, `${path}[${i}]`));
  };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const object =
  <S extends Record<string, Check<unknown>>>(shape: S): Check<{ [K in keyof S]: ReturnType<S[K]> }> =>
  (v, path) => {
    if (!isPlainObject(v)) throw new WireError(path, 'object');
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(shape)) {
      const value = shape[key]!(v[key], path ? `${path}.${key}` : key);
      // As zod: an absent optional key stays absent.
      if (value !== undefined || key in v) out[key] = value;
    }
    return out as { [K in keyof S]: ReturnType<S[K]> };
  };

/** zod's `z.record`: every own key and value checked. */
export const record =
  <K extends string, V>(key: Check<K>, value: Check<V>): Check<Record<K, V>> =>
  (v, path) => {
    if (!isPlainObject(v)) throw new WireError(path, 'object');
    const out: Record<string, V> = {};
    for (const [k, item] of Object.entries(v)) out[key(k, `${path}{key}`)] = value(item, `${path}.${k}`);
    return out as Record<K, V>;
  };

/** zod's `z.record(z.enum(keys), value)`: every key present, no other key. */
export const exhaustiveRecord =
  <const K extends readonly string[], V>(keys: K, value: Check<V>): Check<Record<K[number], V>> =>
  (v, path) => {
    if (!isPlainObject(v)) throw new WireError(path, 'object');
    for (const k of Object.keys(v)) if (!keys.includes(k)) throw new WireError(`${path}.${k}`, 'no such key');
    const out: Record<string, V> = {};
    for (const k of keys) out[k] = value(v[k], `${path}.${k}`);
    return out as Record<K[number], V>;
  };

/** The `{ parse, safeParse }` shape the API client and callers use, as with a zod schema. */
export interface Parser<T> {
  parse(value: unknown): T;
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: WireError };
}

export function parser<T>(check: Check<T>): Parser<T> {
  return {
    parse: (value) => check(value, ''),
    safeParse(value) {
      try {
        return { success: true, data: check(value, '') };
      } catch (error) {
        if (error instanceof WireError) return { success: false, error };
        throw error;
      }
    },
  };
}
