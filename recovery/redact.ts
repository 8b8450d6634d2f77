/**
 * Redaction of text the model may see (`publicMessage`, field feedback).
 *
 * Source: seed 000, "为错误设计一份 Schema": raw exceptions leak internal paths, credential state and implementation
 * details, so the model gets only `publicMessage`; the full record stays behind `diagnosticRef`.
 *
 * One ordered table of rules (`REDACTION_RULES`); each rule replaces what it matches with a short placeholder.
 * Order matters: whole lines (stack frames, credential headers) first, then URLs (so their hosts and query
 * secrets go at once), then token shapes, key=value secrets, addresses, host names and file paths, and last any
 * long high-entropy blob. Every pattern is linear (no nested unbounded quantifiers) and input is capped at
 * `MAX_REDACT_INPUT_CHARS`, so redaction cannot be made slow by its input.
 *
 * Pure: no I/O, no clock.
 */

/** Placeholders. Short, bracketed, and matched by no rule, so `redact` is idempotent. */
export const Placeholder = {
  REDACTED: '[redacted]',
  STACK: '[stack]',
  URL: '[url]',
  HOST: '[host]',
  IP: '[ip]',
  PATH: '[path]',
} as const;
export type Placeholder = (typeof Placeholder)[keyof typeof Placeholder];

/** Longest input `redact` reads, in characters; the rest is dropped (cut at a whitespace) and marked with `…`. */
export const MAX_REDACT_INPUT_CHARS = 65_536;

/** `redact` was given something that is not a string. */
export class RedactionInputError extends Error {
  override readonly name = 'RedactionInputError';
  readonly code = 'redact_input_not_string' as const;
  constructor(received: string) {
    super(`redact(text): text must be a string, got ${received}`);
  }
}

/** One redaction rule: what it removes (`name`), a global pattern, and the replacement. */
export interface RedactionRule {
  readonly name: string;
  readonly pattern: RegExp;
  readonly replace: string | ((match: string, ...groups: string[]) => string);
}

const P = Placeholder;

/** Header names whose whole value is a credential. */
const CREDENTIAL_HEADERS =
  'proxy-authorization|authorization|set-cookie|cookie|x-api-key|api-key|x-auth-token|x-amz-security-token';

/** A key whose value is a secret (`password=`, `"api_key": "..."`, `client_secret: ...`). Tested on the whole key. */
const SECRET_KEY =
  /(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|session[_-]?id|sessionid|cookie|authorization|signature)$/i;

/** Top-level domains we treat as host names (a closed list, so `index.ts`, `amount.value` and `e.g.` survive). */
const TLDS =
  'com|net|org|io|dev|app|ai|cloud|internal|local|localdomain|lan|corp|intranet|svc|cluster|invalid|gov|edu|biz|info|xyz|tech|site|online|run|sh|co|uk|de|fr|eu|nl|jp|cn|ru|br|au|ca|ch|se|us';

const HEX4 = '[0-9A-Fa-f]{1,4}';

/**
 * The location inside a stack frame's parentheses: `file.ext:line[:col]` (V8, Java `Pay.java:42`), a path or
 * module with `:line:col` (`node:internal/x:95:5`), or `native`, `index N`, `<anonymous>`, `unknown location`.
 * A bare `(10:30)` or `(ratio 3:2)` is not one.
 */
const FRAME_LOCATION =
  '(?:[^()\\n]{0,500}\\.[A-Za-z][A-Za-z0-9]{0,9}:\\d+(?::\\d+)?|[^()\\n]{0,500}[A-Za-z/\\\\][^():\\n]{0,200}:\\d+:\\d+|native|index \\d+|<anonymous>|unknown location)';

/**
 * The redaction table, applied in order. Exported so a reader sees every rule in one place and tests can name them.
 */
export const REDACTION_RULES: readonly RedactionRule[] = Object.freeze([
  // Stack frames: V8 (`at fn (file:1:2)`, `at file:1:2`, `at async fn`, `at <anonymous>`), Java, Python.
  {
    name: 'stack frame line',
    pattern: new RegExp(
      `^[ \\t]*at (?:[^\\n]*?\\(${FRAME_LOCATION}\\)|(?:async )?\\S*[/\\\\.]\\S*:\\d+:\\d+|<anonymous>)[ \\t]*\\r?$`,
      'gm',
    ),
    replace: P.STACK,
  },
  { name: 'python frame line', pattern: /^[ \t]*File "[^"\n]*", line \d+[^\n]*$/gm, replace: P.STACK },
  {
    name: 'inline stack frame',
    pattern: new RegExp(`\\bat (?:async |new )?[\\w$.<>[\\] ]{0,200}\\(${FRAME_LOCATION}\\)`, 'g'),
    replace: P.STACK,
  },
  { name: 'consecutive stack placeholders', pattern: /\[stack\](?:\s*\[stack\])+/g, replace: P.STACK },
  // Credential header lines, to the end of the line.
  {
    name: 'credential header',
    pattern: new RegExp(`(^|[\\s,;{])(${CREDENTIAL_HEADERS})[ \\t]*:[^\\r\\n]*`, 'gim'),
    replace: (_m, lead: string, name: string) => `${lead}${name}: ${P.REDACTED}`,
  },
  // URLs whole: host, userinfo, path and query secrets.
  { name: 'url', pattern: /\b[a-z][a-z0-9+.-]{1,15}:\/\/[^\s"'<>`]+/gi, replace: P.URL },
  // Token shapes.
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, replace: P.REDACTED },
  { name: 'openai/anthropic-style key', pattern: /\bsk-[A-Za-z0-9_-]{12,}/g, replace: P.REDACTED },
  {
    name: 'github token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
    replace: P.REDACTED,
  },
  { name: 'slack token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{8,}/g, replace: P.REDACTED },
  {
    name: 'aws access key id',
    pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
    replace: P.REDACTED,
  },
  { name: 'google api key', pattern: /\bAIza[0-9A-Za-z_-]{30,}/g, replace: P.REDACTED },
  { name: 'stripe key', pattern: /\b(?:sk|rk|pk|whsec)_(?:live|test)_[0-9A-Za-z]{8,}/g, replace: P.REDACTED },
  { name: 'gitlab/npm token', pattern: /\b(?:glpat-[0-9A-Za-z_-]{16,}|npm_[A-Za-z0-9]{30,})/g, replace: P.REDACTED },
  {
    name: 'authorization scheme token',
    pattern: /\b(Bearer|Basic|Digest|Token)([ \t]+)([A-Za-z0-9\-._~+/]+=*)/gi,
    replace: (m, scheme: string, space: string, raw: string) => {
      const token = raw.replace(/\.+$/, ''); // a sentence's full stop is not part of the token
      const tokenLike = token.length >= 20 || (token.length >= 8 && /[0-9_~+/=.-]/.test(token));
      return tokenLike ? `${scheme}${space}${P.REDACTED}${raw.slice(token.length)}` : m;
    },
  },
  // key=value / key: value / "key": "value" where the key names a secret.
  {
    name: 'secret key-value',
    pattern:
      /(["']?)(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]{1,200})\1([ \t]*[=:][ \t]*)(\[[a-z]{2,8}\]|"(?:[^"\\\n]|\\.){0,4096}"|'(?:[^'\\\n]|\\.){0,4096}'|[^\s&,;"'})\]]+|["'][^\s]{0,4096})/g,
    replace: (m, quote: string, key: string, sep: string, value: string) => {
      if (!SECRET_KEY.test(key) || /^["']?\[[a-z]{2,8}\]["']?$/.test(value)) return m;
      const q = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : '';
      return `${quote}${key}${quote}${sep}${q}${P.REDACTED}${q}`;
    },
  },
  // Addresses.
  {
    name: 'ipv6 bracketed',
    pattern: /\[(?=[0-9A-Fa-f:.]{2,45}\])[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*\](?::\d{1,5})?/g,
    replace: P.IP,
  },
  {
    name: 'ipv6',
    pattern: new RegExp(
      `(?<![\\w:.])(?:(?:${HEX4}:){7}${HEX4}|(?:${HEX4}(?::${HEX4}){0,6})?::(?:${HEX4}(?::${HEX4}){0,6})?(?::\\d{1,3}(?:\\.\\d{1,3}){3})?)(?![\\w:])`,
      'g',
    ),
    replace: (m: string) => (/[0-9A-Fa-f]/.test(m) ? P.IP : m),
  },
  {
    name: 'ipv4',
    pattern: /\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?::\d{1,5})?\b/g,
    replace: P.IP,
  },
  // Host names.
  {
    name: 'hostname',
    pattern: new RegExp(
      `\\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.){1,8}(?:${TLDS})\\b(?::\\d{1,5})?(?![\\w-])`,
      'gi',
    ),
    replace: P.HOST,
  },
  { name: 'localhost', pattern: /\blocalhost(?::\d{1,5})?\b/gi, replace: P.HOST },
  // File paths.
  {
    name: 'windows path',
    pattern: /\b[A-Za-z]:[\\/](?:[^\\/\s:*?"<>|]+[\\/])*[^\\/\s:*?"<>|]*(?::\d+)*/g,
    replace: P.PATH,
  },
  { name: 'unc path', pattern: /\\\\[^\\\s]+\\[^\s"'<>|]*/g, replace: P.PATH },
  { name: 'posix path', pattern: /(?<![\w\])])(?:~|\.{1,2})?\/(?:[\w.@+-]+\/)+[\w.@+-]*(?::\d+)*/g, replace: P.PATH },
  {
    name: 'posix file',
    pattern: /(?<![\w\])])(?:~|\.{1,2})?\/[\w@+-]+\.[A-Za-z0-9]{1,8}\b(?::\d+)*/g,
    replace: P.PATH,
  },
  {
    name: 'relative source path',
    pattern:
      /(?<![\w.@-])[\w.@-]{1,100}(?:\/[\w@-][\w.@-]{0,99}){1,16}\.(?:[cm]?[jt]sx?|py|java|go|rb|rs|php|cs|kt|swift|json|ya?ml|toml|env|pem|key)\b(?::\d+)*/g,
    replace: P.PATH,
  },
  // Any long high-entropy blob (hex digests, base64 secrets): 32+ characters mixing letters and digits.
  {
    name: 'long token',
    pattern: /[A-Za-z0-9+/_]{32,}={0,2}/g,
    replace: (m: string) => (/[0-9]/.test(m) && /[A-Za-z]/.test(m) ? P.REDACTED : m),
  },
] satisfies RedactionRule[]);

/** True when a key or field name names a secret (`password`, `api_key`, `accessToken`, `client_secret`, …). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/**
 * Removes from `text` everything the model must not see: stack traces, file paths (POSIX and Windows), URLs,
 * host names, IPv4/IPv6 addresses, bearer tokens, JWTs, API-key shapes (sk-…, ghp_…, xox…, AKIA…, Stripe, Google),
 * `Authorization`/`Cookie`/`Set-Cookie` header lines and the values of `password=`/`token=`/`secret=`/`api_key=`
 * style keys. Each is replaced by a short placeholder (`Placeholder`). Ordinary prose survives unchanged, e.g.
 * "amountCents must be a positive integer" and "slot 10:00 is taken".
 *
 * Idempotent: `redact(redact(t)) === redact(t)`. Input beyond `MAX_REDACT_INPUT_CHARS` is dropped (cut at a
 * whitespace so no secret is left half-cut) and the result ends with `…`.
 *
 * @param text any string.
 * @returns the redacted string (newlines kept).
 * @throws RedactionInputError (`code` 'redact_input_not_string') when `text` is not a string.
 */
export function redact(text: string): string {
  if (typeof text !== 'string') throw new RedactionInputError(text === null ? 'null' : typeof text);
  let out = text;
  let cut = false;
  if (out.length > MAX_REDACT_INPUT_CHARS) {
    out = out.slice(0, MAX_REDACT_INPUT_CHARS);
    const lastSpace = out.search(/\s\S*$/);
    out = lastSpace > 0 ? out.slice(0, lastSpace) : '';
    cut = true;
  }
  for (const rule of REDACTION_RULES) {
    rule.pattern.lastIndex = 0;
    out =
      typeof rule.replace === 'string'
        ? out.replace(rule.pattern, rule.replace)
        : out.replace(rule.pattern, rule.replace);
  }
  return cut ? `${out}…` : out;
}
