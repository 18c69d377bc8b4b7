import { isSecretEntry, REDACTED, redactText } from './redact';

/** Past these, a detail is cut: a log line is for a person to read, not a copy of the payload. */
export const MAX_STRING = 4000;
const MAX_DEPTH = 6;
const MAX_ITEMS = 50;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Redacts, then cuts: a cut must not leave a token's head where its pattern no longer matches. */
export function safeText(text: string, max = MAX_STRING): string {
  // Bounded before the regexes run, so that a megabyte body costs no more than a long line.
  const redacted = redactText(text.length > max * 4 ? text.slice(0, max * 4) : text);
  if (redacted.length <= max && text.length <= max * 4) return redacted;
  return `${redacted.slice(0, max)}…[cut, ${text.length} chars in all]`;
}

function isNode(value: object): value is Node {
  return typeof (value as Node).nodeType === 'number' && typeof (value as Node).nodeName === 'string';
}

function nodeText(node: Node): string {
  if (typeof XMLSerializer !== 'undefined') return new XMLSerializer().serializeToString(node);
  return (node as Partial<Element>).outerHTML ?? node.nodeName;
}

function entriesObject(entries: Iterable<[unknown, unknown]>, depth: number, seen: WeakSet<object>): Json {
  // No prototype: a logged object's own "__proto__" key is a key like any other here.
  const out: { [key: string]: Json } = Object.create(null) as { [key: string]: Json };
  let n = 0;
  for (const [k, v] of entries) {
    if (n++ >= MAX_ITEMS) {
      out['…'] = 'more entries';
      break;
    }
    const key = safeText(String(k), 200);
    out[key] = isSecretEntry(String(k), v) ? REDACTED : sanitise(v, depth + 1, seen);
  }
  return out;
}

/** A value turned into JSON that can be kept: secrets redacted, cycles and depth cut, Errors spelled out. */
export function sanitise(value: unknown, depth = 0, seen = new WeakSet<object>()): Json {
  switch (typeof value) {
    case 'string':
      return safeText(value);
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return `${value}n`;
    case 'undefined':
      return '[undefined]';
    case 'symbol':
      return String(value);
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
  }
  if (value === null) return null;
  const obj = value as object;
  if (seen.has(obj)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[…]';
  seen.add(obj);
  try {
    if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
    if (obj instanceof URL) return safeText(obj.href);
    if (typeof Request !== 'undefined' && obj instanceof Request) return { method: obj.method, url: safeText(obj.url) };
    if (typeof Response !== 'undefined' && obj instanceof Response) return { status: obj.status, url: safeText(obj.url) };
    if (ArrayBuffer.isView(obj) || obj instanceof ArrayBuffer) return `[${obj.constructor.name} ${obj.byteLength} bytes]`;
    if (isNode(obj)) return safeText(nodeText(obj));
    if (obj instanceof Error) {
      const out: { [key: string]: Json } = { name: safeText(obj.name, 200), message: safeText(obj.message) };
      if (obj.stack) out.stack = safeText(obj.stack);
      // What an error carries besides (an ApiError's status and body, a request someone attached).
      for (const key of Object.keys(obj).slice(0, MAX_ITEMS)) {
        if (key in out) continue;
        const v = (obj as unknown as Record<string, unknown>)[key];
        out[safeText(key, 200)] = isSecretEntry(key, v) ? REDACTED : sanitise(v, depth + 1, seen);
      }
      if (obj.cause !== undefined) out.cause = sanitise(obj.cause, depth + 1, seen);
      return out;
    }
    if (obj instanceof Map) return entriesObject(obj, depth, seen);
    if (typeof Headers !== 'undefined' && obj instanceof Headers) return entriesObject(obj, depth, seen);
    if (obj instanceof Set) return sanitise([...obj], depth, seen);
    if (Array.isArray(obj)) {
      const items = obj.slice(0, MAX_ITEMS).map((v: unknown) => sanitise(v, depth + 1, seen));
      if (obj.length > MAX_ITEMS) items.push(`…[${obj.length - MAX_ITEMS} more items]`);
      return items;
    }
    return entriesObject(
      Object.keys(obj).map((k): [string, unknown] => [k, (obj as Record<string, unknown>)[k]]),
      depth,
      seen,
    );
  } catch {
    // A getter that throws, a revoked proxy: the line is still worth keeping.
    return '[unreadable]';
  } finally {
    seen.delete(obj);
  }
}

/** A line's details as one line of JSON values, or '' when there are none. */
export function serialiseDetails(details: readonly unknown[]): string {
  return details
    .map((d) => {
      try {
        return JSON.stringify(sanitise(d));
      } catch {
        return '"[unserialisable]"';
      }
    })
    .join(' ');
}
