/**
 * What never goes into the client log: tokens, passwords, digest answers, SASL exchanges. Lines are
 * redacted when they are kept, so a file a user downloads and attaches to a ticket carries none.
 * Erring towards hiding too much is the point: a redacted value costs a little debugging, a leaked
 * one costs an account.
 */
export const REDACTED = '[redacted]';

/**
 * An object entry that holds a secret: password fields (and their confirmation), tokens, secrets,
 * auth headers, SIP HA1, a digest answer (the password's hash, open to guessing).
 */
export function isSecretEntry(key: string, value?: unknown): boolean {
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (k === 'response') return typeof value === 'string' && /^[0-9a-f]{32,}$/i.test(value);
  return (
    k.includes('password') ||
    k.includes('passwd') ||
    k.includes('secret') ||
    k.endsWith('token') ||
    k === 'jwt' ||
    k === 'confirm' ||
    k === 'confirmation' ||
    k === 'ha1' ||
    k === 'authorization' ||
    k === 'proxyauthorization' ||
    k === 'cookie' ||
    k === 'setcookie'
  );
}

/** The key names that `key: value`, `key=value` and `"key": "value"` inside text are looked for by. */
const SECRET_KEY_TEXT = String.raw`[A-Za-z0-9_-]*(?:password|passwd|secret|token)|jwt|ha1|cookie|confirm|confirmation`;

const RULES: ReadonlyArray<[RegExp, string | ((...groups: string[]) => string)]> = [
  // SASL exchanges (XMPP): PLAIN's <auth> is base64 of "\0user\0password"; SCRAM's carry proofs.
  [/(<(auth|response|challenge|success)\b[^>]*>)[^<]+(<\/\2>)/gi, `$1${REDACTED}$3`],
  // HTTP and SIP auth header lines (Digest, Bearer, Basic) and cookies: the rest of the line goes.
  [/\b((?:proxy-authorization|authorization|set-cookie|cookie)\s*:[ \t]*)[^\r\n]*/gi, `$1${REDACTED}`],
  // "password": "…", token=…, secret: … in JSON (also JSON inside a JSON string), query strings,
  // form bodies and prose.
  [
    new RegExp(
      String.raw`(\\?["']|)\b((?:${SECRET_KEY_TEXT}|(?:proxy-)?authorization))\1(\s*[:=]\s*)(?!(?:\\?["'])?\[redacted\])(\\"(?:(?!\\").)*\\"|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s"'\\,;&}\]]+)`,
      'gi',
    ),
    // The value's own quotes are kept, so that JSON stays JSON and a query string a query string.
    (_all, q: string, key: string, sep: string, value: string) => {
      const quote = /^(\\?["'])?/.exec(value)![0];
      return `${q}${key}${q}${sep}${quote}${REDACTED}${quote}`;
    },
  ],
  [/\bBearer\s+[A-Za-z0-9\-._~+/]+=*/gi, `Bearer ${REDACTED}`],
  // A digest answer alone (a SIP header logged in pieces) is the password's hash, open to guessing.
  [/\b(response\s*=\s*)"?[0-9a-f]{32,}"?/gi, `$1"${REDACTED}"`],
  // Credentials in a URL: wss://user:password@host.
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi, `$1${REDACTED}@`],
  // A JWT anywhere (its header is base64 of '{"', hence "ey").
  [/\bey[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, REDACTED],
];

export function redactText(text: string): string {
  let out = text;
  for (const [re, to] of RULES) out = typeof to === 'string' ? out.replace(re, to) : out.replace(re, to);
  return out;
}
