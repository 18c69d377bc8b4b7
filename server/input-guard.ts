import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';

// With the u flag a surrogate pair is one code point, so only an unpaired half matches.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * What PostgreSQL refuses in text: U+0000 (text cannot hold it) and lone UTF-16 surrogates (they
 * have no UTF-8 form). Checked once for every request rather than in each schema, so a new route
 * or field cannot forget it; without it the database's refusal surfaced as a 500.
 */
export function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'Text must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(s)) return 'Text must be valid Unicode (no lone surrogate)';
  return null;
}

/** The first string (value or key) in `value` that cannot be stored, with its path. Iterative: a deeply nested body cannot overflow the stack. */
export function findBadText(value: unknown, root: string): { path: string; message: string } | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return { path, message: problem };
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, `${path}.${i}`]));
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, item] of Object.entries(v)) {
        const problem = textProblem(k);
        if (problem) return { path: `${path}.(key)`, message: problem };
        stack.push([item, `${path}.${k}`]);
      }
    }
  }
  return null;
}

/** Rejects unstorable text in the path, the query and a parsed body of every route with a 400 that says where. */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [where, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const bad = findBadText(value, where);
      if (bad) throw new ApiError(400, 'invalid_text', `Invalid ${where}: ${bad.message}`, [bad]);
    }
  });
}
