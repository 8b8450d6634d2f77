/**
 * Redaction of text the model may see (`publicMessage`, field feedback).
 *
 * Source: docs/DESIGN.md, "What the model sees" and "The failure record": raw exceptions leak internal paths,
 * credential state and implementation details, so the model gets only `publicMessage`; the full record stays behind
 * `diagnosticRef`.
 *
 * Two steps. First `revealHidden` (recovery/redact-normalize.ts) undoes what hides a secret from a pattern:
 * zero-width and control characters, full-width and other compatibility forms (NFKC), mixed-script homoglyphs,
 * percent-encoding. Then one ordered table of rules (`REDACTION_RULES`); each rule replaces what it matches with
 * a short placeholder. Order matters: whole lines (stack frames), private key blocks and credential headers
 * first, then URLs (so their hosts and query secrets go at once), then token shapes, key=value secrets,
 * credentials in prose, addresses, host names, user:password@ before a host, file paths, and last any long
 * high-entropy blob. Every pattern is linear (no nested unbounded quantifiers) and input is capped at
 * `MAX_REDACT_INPUT_CHARS`, so redaction cannot be made slow by its input.
 *
 * Pure: no I/O, no clock.
 */
import { revealHidden, URL_SOURCE } from './redact-normalize';
import { RecoveryError } from './recovery-error';

/** Placeholders. Short and bracketed; no rule takes one apart, so a redacted text stays redacted. */
export const Placeholder = {
  REDACTED: '[redacted]',
  STACK: '[stack]',
  URL: '[url]',
  HOST: '[host]',
  IP: '[ip]',
  PATH: '[path]',
} as const;
export type Placeholder = (typeof Placeholder)[keyof typeof Placeholder];

/**
 * Longest input `redact` reads, in characters; the rest is dropped (cut at a whitespace) and marked with `…`.
 * Also the longest output: a longer result is cut the same way.
 */
export const MAX_REDACT_INPUT_CHARS = 65_536;

/**
 * Most passes of the whole table. A placeholder can make a new match next to it (`localhost::12` → `[host]::12`
 * → `[host][ip]`), so `redact` repeats the table until a pass changes nothing: one pass for clean text, two or
 * three when something was replaced.
 */
export const MAX_REDACT_PASSES = 4;

/**
 * Growth bound: `redact(t).length ≤ REDACT_GROWTH_FACTOR × t.length + REDACT_GROWTH_SLACK`.
 * Why 3: `revealHidden` maps a character to at most 3 (NFKC: `ﬃ` → `ffi`, `⑴` → `(1)`; longer expansions such as
 * `ﷺ` → 18 characters are not applied), and the rules grow text less than that: the largest growth is a
 * 5-character secret pair becoming 14 (`sig=x` → `sig=[redacted]`, ×2.8; repeated as `sig=x&…`, ×2.5), every
 * other placeholder replaces at least 3 characters with at most 10. The slack covers one such pair in a short
 * input. Checked by the property tests (test/unit/redact.property.test.ts), not proven.
 */
export const REDACT_GROWTH_FACTOR = 3;
/** See `REDACT_GROWTH_FACTOR`. */
export const REDACT_GROWTH_SLACK = 16;

/** `redact` was given something that is not a string. */
export class RedactionInputError extends RecoveryError<'redact_input_not_string'> {
  override readonly name = 'RedactionInputError';
  static override readonly codes: readonly string[] = ['redact_input_not_string'];
  constructor(received: string) {
    super('redact_input_not_string', `redact(text): text must be a string, got ${received}`);
  }
}

/** One redaction rule: what it removes (`name`), a global pattern, and the replacement. */
export interface RedactionRule {
  readonly name: string;
  readonly pattern: RegExp;
  readonly replace: string | ((match: string, ...groups: string[]) => string);
  /**
   * A cheap necessary condition: false only when `pattern` cannot match `text`, because every match contains a
   * literal or a character `text` lacks; `redact` then skips the rule (same result, less time). Where `pattern`
   * has the `i` flag the precheck does too, and neither has `u`: their ASCII letters then match the same
   * characters (ECMA-262 Canonicalize). Its regular expressions are not global, so they keep no `lastIndex`.
   * Absent: the rule always runs.
   */
  readonly mayMatch?: (text: string) => boolean;
}

const P = Placeholder;

/** Header names whose whole value is a credential. */
const CREDENTIAL_HEADERS =
  'proxy-authorization|authorization|set-cookie|cookie|x-api-key|api-key|x-auth-token|x-amz-security-token|x-goog-api-key|x-access-token';

/**
 * Secret key names (see `isSecretKey`). A key is secret when it contains `secret`, `password`, `passwd`,
 * `credential` or `privkey`; or its last word (camelCase, snake_case, kebab-case and dots split words) is one of
 * `SECRET_WORDS`, ends with one of `SECRET_SUFFIXES`, or its last two words form one of `SECRET_PAIRS`.
 */
const SECRET_ANYWHERE = /secret|passw(?:or)?d|credential|privkey/i;
const SECRET_WORDS = new Set([
  'pass',
  'pwd',
  'passphrase',
  'passcode',
  'pin',
  'otp',
  'token',
  'auth',
  'authorization',
  'bearer',
  'cookie',
  'signature',
  'sig',
  'jwt',
  'apikey',
  'sessionid',
]);
/** A glued word ending like this is secret too (`accesstoken`, `csrftoken`, `xapikey`). */
const SECRET_SUFFIXES = ['token', 'apikey', 'cookie', 'signature', 'authorization', 'sessionid'];
const SECRET_PAIRS = new Set([
  'apikey',
  'accesskey',
  'privatekey',
  'secretkey',
  'accountkey',
  'signingkey',
  'encryptionkey',
  'masterkey',
  'authkey',
  'sessionid',
]);

/**
 * A key=value key that may name a secret (the rule then asks `isSecretKey`): one ending in a secret word, or
 * containing `secret`/`password`/`passwd`/`credential`. Keys that cannot be secret are not matched at all, so
 * their values stay open to the other rules (`x?token=…` inside `example:8443/v1/x?token=…`).
 */
const SECRET_KEY_SOURCE =
  '[A-Za-z0-9_.-]{0,100}?(?:pass(?:word|wd|phrase|code)?|pwd|pin|otp|secret|token|key|credentials?|cookie|auth(?:orization)?|signature|sig|bearer|jwt|privkey|session[_-]?id)|[A-Za-z0-9_.-]{0,100}?(?:secret|passw(?:or)?d|credential|privkey)[A-Za-z0-9_.-]{1,100}';

/**
 * A word every key matched by `SECRET_KEY_SOURCE` contains (`privkey` has `key`, `signature` has `sig`, `passwd`
 * has `pass`): the precheck of the 'secret key-value' rule.
 */
const SECRET_KEY_HINT = /pass|pwd|pin|otp|secret|token|key|credential|cookie|auth|sig|bearer|jwt|session/i;

/** Credential nouns in prose: `password hunter2`, `token is abc123def456`, `X-Api-Key abcd1234`. */
const CREDENTIAL_NOUNS =
  'pass(?:word|wd|phrase|code)|pwd|pin|otp|secret|token|api[ _-]?key|access[ _-]?key|secret[ _-]?key|private[ _-]?key|client[ _-]?secret|credentials?|x-api-key|x-auth-token|authorization';

/** A word every noun of `CREDENTIAL_NOUNS` contains: the precheck of the 'credential in prose' rule. */
const CREDENTIAL_NOUN_HINT = /pass|pwd|pin|otp|secret|token|key|credential|authorization/i;

/** Top-level domains always taken as host names, whatever the labels (so `index.ts`, `amount.value` and `e.g.` survive). */
const TLDS =
  'com|net|org|io|dev|app|ai|cloud|internal|local|localdomain|lan|corp|intranet|svc|cluster|invalid|gov|edu|mil|int|arpa|test|example|onion|consul|biz|info|xyz|tech|site|online|run|sh|co|uk|de|fr|eu|nl|jp|cn|ru|br|au|ca|ch|se|us|kr|tw|hk|sg|nz|za|mx|cz|hu|ie|dk|fi|il|ua|tr|vn|cl|ro|gr';

/**
 * Last labels that end a dotted field path or file name, not a host, even with a hyphen or digit label before
 * them (`items.sku-1.id`, `config.v1.yaml`): field-like two-letter words and file extensions.
 */
const NOT_A_TLD = new Set(
  (
    'id|no|to|at|by|is|as|do|go|so|me|my|am|pm|mm|cm|km|kg|lb|ms|st|hr|mo|ml|md|py|rs|cc|ps|js|ts|' +
    'txt|json|jsonl|yaml|yml|toml|xml|html|htm|css|csv|tsv|log|env|ini|cfg|conf|lock|png|jpg|jpeg|gif|svg|pdf|' +
    'zip|gz|tar|tgz|exe|dll|so|bin|sql|db|sqlite|pem|crt|cer|key|proto|map|vue|php|cs|swift|scala|java|kt|go|rb|' +
    'rs|cpp|hpp|mjs|cjs|tsx|jsx|mdx|sh|bash|zsh|bat|ps1|wasm|class|jar|whl|egg|tmp|bak|old|orig|swp'
  ).split('|'),
);

const HEX4 = '[0-9A-Fa-f]{1,4}';
/** One DNS label, lower case (RFC 1035 §2.3.1 with digits allowed first, RFC 1123 §2.1). */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A path after a host (`hooks.slack.com/services/…`): the whole becomes `[url]`. */
const HOST_PATH = '(?:\\/[^\\s"\'<>`]*)?';

/**
 * The location inside a stack frame's parentheses: `file.ext:line[:col]` (V8, Java `Pay.java:42`), a path or
 * module with `:line:col` (`node:internal/x:95:5`), or `native`, `index N`, `<anonymous>`, `unknown location`.
 * A bare `(10:30)` or `(ratio 3:2)` is not one.
 */
const FRAME_LOCATION =
  '(?:[^()\\n]{0,500}\\.[A-Za-z][A-Za-z0-9]{0,9}:\\d+(?::\\d+)?|[^()\\n]{0,500}[A-Za-z/\\\\][^():\\n]{0,200}:\\d+:\\d+|native|index \\d+|<anonymous>|unknown location)';

/**
 * True when `text` has `min` characters of `[A-Za-z0-9+/_]` in a row (the precheck of the 'long token' rule,
 * whose matches begin with such a run).
 */
function hasRun(text: string, min: number): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const inClass =
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2b ||
      c === 0x2f ||
      c === 0x5f;
    run = inClass ? run + 1 : 0;
    if (run >= min) return true;
  }
  return false;
}

/** `[host]`, or `[url]` when a path follows the host. Trailing sentence punctuation stays outside. */
function hostOrUrl(path: string | undefined): string {
  if (path === undefined || path === '' || path === '/') return `${P.HOST}${path ?? ''}`;
  const tail = /[.,;:!?)\]]+$/.exec(path)?.[0] ?? '';
  return path.length === tail.length + 1 ? `${P.HOST}${path}` : `${P.URL}${tail}`;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * True when `token` is base64 (RFC 4648 §4, padded) of printable text with a `:` in it, which is what an HTTP
 * Basic credential is (RFC 7617 §2: base64 of `user-id ":" password`). `plan`, `HTTP` and `auth` decode to
 * control bytes, so they are not.
 */
function isBasicCredential(token: string): boolean {
  if (token.length < 4 || token.length > 1024 || token.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(token)) {
    return false;
  }
  let bits = 0;
  let value = 0;
  let text = '';
  for (const c of token.replace(/=+$/, '')) {
    value = ((value << 6) | BASE64.indexOf(c)) & 0xffff; // only the last 14 bits are ever read
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      text += String.fromCharCode((value >> bits) & 0xff);
    }
  }
  return text.includes(':') && /^[\x20-\x7e\x80-\xff]+$/.test(text);
}

/** A value after a credential noun in prose is a secret when it is not an ordinary word. */
function looksLikeSecret(noun: string, value: string): boolean {
  if (/^(?:pass|pwd|pin|otp)/i.test(noun)) {
    return value.length >= 4 && (/\d/.test(value) || /[A-Z]/.test(value.slice(1)) || /[^A-Za-z0-9-]/.test(value));
  }
  return (
    value.length >= 6 &&
    /[A-Za-z]/.test(value) &&
    (/\d/.test(value) || /[A-Z]/.test(value.slice(1)) || /[^A-Za-z0-9-]/.test(value))
  );
}

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
    mayMatch: (t) => t.includes('at '), // every match has `at ` after the indent
  },
  {
    name: 'python frame line',
    pattern: /^[ \t]*File "[^"\n]*", line \d+[^\n]*$/gm,
    replace: P.STACK,
    mayMatch: (t) => t.includes('File "'),
  },
  {
    name: 'inline stack frame',
    pattern: new RegExp(`\\bat (?:async |new )?[\\w$.<>[\\] ]{0,200}\\(${FRAME_LOCATION}\\)`, 'g'),
    replace: P.STACK,
    mayMatch: (t) => t.includes('at ') && t.includes('('),
  },
  {
    name: 'consecutive stack placeholders',
    pattern: /\[stack\](?:\s*\[stack\])+/g,
    replace: P.STACK,
    mayMatch: (t) => t.includes('[stack]'),
  },
  // PEM / OpenSSH / PGP private key blocks, with or without their END line (RFC 7468 §2). Without an END line,
  // whatever could still be base64 or a PEM header after BEGIN goes too: over-redaction rather than a leak.
  {
    name: 'private key block',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s:,.]|-(?!----))*(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----)?/g,
    replace: P.REDACTED,
    mayMatch: (t) => t.includes('-----BEGIN '),
  },
  // Credential header lines, to the end of the line.
  {
    name: 'credential header',
    pattern: new RegExp(`(^|[\\s,;{])(${CREDENTIAL_HEADERS})[ \\t]*:[^\\r\\n]*`, 'gim'),
    replace: (_m, lead: string, name: string) => `${lead}${name}: ${P.REDACTED}`,
    // Every name in `CREDENTIAL_HEADERS` contains one of these; a `:` follows it.
    mayMatch: (t) => t.includes(':') && /authorization|cookie|api-key|-token/i.test(t),
  },
  // URLs whole: host, userinfo (`https://user:pass@host`), path and query secrets.
  { name: 'url', pattern: new RegExp(URL_SOURCE, 'gi'), replace: P.URL, mayMatch: (t) => t.includes('://') },
  // Token shapes.
  {
    name: 'jwt',
    pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
    replace: P.REDACTED,
    mayMatch: (t) => t.includes('eyJ'),
  },
  {
    name: 'openai/anthropic-style key',
    pattern: /\bsk-[A-Za-z0-9_-]{12,}/g,
    replace: P.REDACTED,
    mayMatch: (t) => t.includes('sk-'),
  },
  {
    name: 'github token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
    replace: P.REDACTED,
    mayMatch: (t) => t.includes('gh') || t.includes('github_pat_'),
  },
  {
    name: 'slack token',
    pattern: /\bx(?:ox[abposre]|app)-[A-Za-z0-9-]{8,}/g,
    replace: P.REDACTED,
    mayMatch: (t) => t.includes('xox') || t.includes('xapp-'),
  },
  {
    name: 'aws access key id',
    pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
    replace: P.REDACTED,
    mayMatch: (t) => /AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA/.test(t),
  },
  {
    name: 'google api key',
    pattern: /\bAIza[0-9A-Za-z_-]{30,}/g,
    replace: P.REDACTED,
    mayMatch: (t) => t.includes('AIza'),
  },
  {
    name: 'google oauth token',
    pattern: /\b(?:ya29\.[0-9A-Za-z_-]{10,}|1\/\/0[0-9A-Za-z_-]{20,})/g,
    replace: P.REDACTED,
    mayMatch: (t) => t.includes('ya29.') || t.includes('1//0'),
  },
  {
    name: 'stripe key',
    pattern: /\b(?:sk|rk|pk|whsec)_(?:live|test)_[0-9A-Za-z]{8,}/g,
    replace: P.REDACTED,
    mayMatch: (t) => t.includes('_live_') || t.includes('_test_'),
  },
  {
    name: 'gitlab/npm token',
    pattern: /\b(?:glpat-[0-9A-Za-z_-]{16,}|npm_[A-Za-z0-9]{30,})/g,
    replace: P.REDACTED,
    mayMatch: (t) => t.includes('glpat-') || t.includes('npm_'),
  },
  {
    // `Bearer x`, `Basic dXNlcjpwYXNz`: a token when ≥ 20 characters, or ≥ 8 with a digit, symbol or an inner
    // capital, or ≥ 16 lower-case letters; after `Basic`, also any base64 that decodes to `user:password`
    // (RFC 7617 §2), however short. `Bearer error`, `Basic plan`, `Basic HTTP` and `Basic Authentication` stay.
    name: 'authorization scheme token',
    pattern: /\b(Bearer|Basic|Digest|Token|Negotiate|NTLM)([ \t]+)([A-Za-z0-9\-._~+/]+=*)/gi,
    replace: (m, scheme: string, space: string, raw: string) => {
      const token = raw.replace(/\.+$/, ''); // a sentence's full stop is not part of the token
      const tokenLike =
        token.length >= 20 ||
        (token.length >= 8 && (/[0-9_~+/=.-]/.test(token) || /[A-Z]/.test(token.slice(1)))) ||
        (token.length >= 16 && /^[a-z]+$/.test(token)) ||
        (/^basic$/i.test(scheme) && isBasicCredential(token));
      return tokenLike ? `${scheme}${space}${P.REDACTED}${raw.slice(token.length)}` : m;
    },
    mayMatch: (t) => /bearer|basic|digest|token|negotiate|ntlm/i.test(t),
  },
  // key=value / key: value / "key": "value" where the key names a secret.
  {
    name: 'secret key-value',
    pattern: new RegExp(
      `(["']?)(?<![A-Za-z0-9_.-])(${SECRET_KEY_SOURCE})\\1([ \\t]*[=:][ \\t]*)(\\[[a-z]{2,8}\\]|"(?:[^"\\\\\\n]|\\\\.){0,4096}"|'(?:[^'\\\\\\n]|\\\\.){0,4096}'|(?:bearer|basic|digest|token|negotiate|ntlm)[ \\t]+[^\\s,;"'&]+|[^\\s&,;"'})\\]]+|["'][^\\s]{0,4096})`,
      'gi',
    ),
    replace: (m, quote: string, key: string, sep: string, value: string) => {
      if (!isSecretKey(key) || /^["']?\[[a-z]{2,8}\]["']?$/.test(value)) return m;
      const q = value.startsWith('"') ? '"' : value.startsWith("'") ? "'" : '';
      return `${quote}${key}${quote}${sep}${q}${P.REDACTED}${q}`;
    },
    // A `=` or `:` follows the key.
    mayMatch: (t) => (t.includes('=') || t.includes(':')) && SECRET_KEY_HINT.test(t),
  },
  // Credentials in prose: `with password hunter2`, `token is abc123def456`, `X-Api-Key abcd1234efgh5678`.
  {
    name: 'credential in prose',
    pattern: new RegExp(
      `\\b(${CREDENTIAL_NOUNS})((?:[ \\t]+(?:is|was|equals|set to))?[ \\t]+)("[^"\\n]{1,200}"|'[^'\\n]{1,200}'|[^\\s"'<>[\\]]{4,200})`,
      'gi',
    ),
    replace: (m, noun: string, gap: string, value: string) => {
      if (value.startsWith('"') || value.startsWith("'")) return `${noun}${gap}${value[0]}${P.REDACTED}${value[0]}`;
      const core = value.replace(/[.,;:!?)]+$/, '');
      return looksLikeSecret(noun, core) ? `${noun}${gap}${P.REDACTED}${value.slice(core.length)}` : m;
    },
    mayMatch: (t) => (t.includes(' ') || t.includes('\t')) && CREDENTIAL_NOUN_HINT.test(t),
  },
  // Addresses.
  {
    name: 'ipv6 bracketed',
    pattern: /\[(?=[0-9A-Fa-f:.]{2,45}\])[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*\](?::\d{1,5})?/g,
    replace: P.IP,
    mayMatch: (t) => t.includes('[') && t.includes(':') && t.includes(']'),
  },
  {
    // Full, `::`-compressed, IPv4-mapped (`::ffff:10.0.0.1`), with a zone (`fe80::1%eth0`, RFC 6874).
    name: 'ipv6',
    pattern: new RegExp(
      `(?<![\\w:.])(?:(?:${HEX4}:){7}${HEX4}|(?:${HEX4}(?::${HEX4}){0,6})?::(?:${HEX4}(?::${HEX4}){0,6})?(?::\\d{1,3}(?:\\.\\d{1,3}){3})?)(?:%[0-9A-Za-z._~-]{1,32})?(?![\\w:]|\\.\\d)`,
      'g',
    ),
    replace: (m: string) => (/[0-9A-Fa-f]/.test(m) ? P.IP : m),
    // A match has `::`, or else seven `HEX4:` groups before a last one, so a hex digit, `:` and a hex digit.
    mayMatch: (t) => t.includes('::') || /[0-9A-Fa-f]:[0-9A-Fa-f]/.test(t),
  },
  {
    name: 'ipv4',
    pattern: /\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?::\d{1,5})?\b/g,
    replace: P.IP,
    mayMatch: (t) => /\d\.\d/.test(t), // an octet, a dot, an octet
  },
  // Host names. Rule: a dotted name is a host when (a) its last label is in `TLDS`; or (b) it has 3+ labels,
  // one of them with a hyphen or a letter-digit mix (`orders-db.prod.acme.in`, `db01.corp.acme.it`), and its
  // last label is 2–24 letters not in `NOT_A_TLD`; or (c) a port follows it (`acme.zz:5432`); or (d) a network
  // word precedes it (`connect to`, `host`, `ENOTFOUND`, …). A following path makes it `[url]`. Otherwise it is
  // prose: `e.g.`, `file.txt`, `v1.2.3`, `12.50`, `amount.value`, `data.attributes.amount` survive.
  {
    name: 'hostname with a known TLD',
    pattern: new RegExp(
      `\\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.){1,8}(?:${TLDS})\\b(?::\\d{1,5})?(?![\\w-]|\\.[A-Za-z0-9])(${HOST_PATH})`,
      'gi',
    ),
    replace: (_m: string, path: string) => hostOrUrl(path),
    mayMatch: (t) => /\.[a-z]/i.test(t), // a label's dot, then a TLD (each starts with a letter)
  },
  {
    name: 'hostname with a hyphen or digit label',
    pattern: new RegExp(
      `(?<![\\w./\\\\\\]-])((?:${LABEL}\\.){2,8})([a-z]{2,24})(?::\\d{1,5})?(?![\\w-]|\\.[A-Za-z0-9])(${HOST_PATH})`,
      'g',
    ),
    replace: (m: string, labels: string, tld: string, path: string) =>
      !NOT_A_TLD.has(tld) && /-|[a-z]{2}\d|\d[a-z]{2}/.test(labels) ? hostOrUrl(path) : m,
    mayMatch: (t) => /\.[a-z0-9]/.test(t), // a label's dot, then the next label (lower case, no `i` flag)
  },
  {
    name: 'hostname with a port',
    pattern: new RegExp(`(?<![\\w./\\\\\\]-])(?:${LABEL}\\.){1,8}([a-z]{2,24}):\\d{1,5}(?![\\d:])(${HOST_PATH})`, 'g'),
    replace: (m: string, tld: string, path: string) => (NOT_A_TLD.has(tld) ? m : hostOrUrl(path)),
    mayMatch: (t) => /\.[a-z]/.test(t) && /[a-z]:\d/.test(t), // `.tld`, and the TLD's last letter, `:`, a digit
  },
  {
    name: 'host after a network word',
    pattern: new RegExp(
      `\\b(ECONN[A-Z]+|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|getaddrinfo|[Cc]onnect(?:ed|ing|ion)?(?:[ \\t]+to)?|[Hh]ost(?:name)?|[Ss]erver|[Uu]pstream|[Rr]esolv(?:e|ing))([ \\t]+)(${LABEL}(?:\\.${LABEL}){0,8})(:\\d{1,5})?(?![\\w.-])`,
      'g',
    ),
    replace: (m: string, word: string, space: string, name: string, port: string | undefined) => {
      const isHost =
        /^(?:E[A-Z_]+|getaddrinfo)$/.test(word) ||
        port !== undefined ||
        /\.[a-z]{2,24}$/.test(name) ||
        (/-/.test(name) && /[a-z]/.test(name));
      return isHost && !/^\d+$/.test(name) ? `${word}${space}${P.HOST}` : m;
    },
    // A part of every word the pattern starts with (`ost` for `Host`, `hostname`).
    mayMatch: (t) =>
      /ECONN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|getaddrinfo|onnect|ost|erver|pstream|esolv/.test(t),
  },
  {
    name: 'hyphenated host with a port',
    pattern: /(?<![\w.\]-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+:\d{2,5}(?![\d:])/g,
    replace: P.HOST,
    mayMatch: (t) => t.includes('-') && t.includes(':'),
  },
  {
    name: 'localhost',
    pattern: /\blocalhost(?::\d{1,5})?\b/gi,
    replace: P.HOST,
    mayMatch: (t) => /localhost/i.test(t),
  },
  // `user:password@` left before a host or address (no scheme, so the url rule did not take it).
  {
    name: 'userinfo before a host',
    pattern: /(?<![\w.%+\]-])[\w.%+-]{1,64}:[^\s@/:]{1,256}@(?=\[(?:host|ip|url)\])/g,
    replace: `${P.REDACTED}@`,
    mayMatch: (t) => t.includes('@['), // `@` then a placeholder
  },
  // File paths.
  {
    name: 'windows path',
    pattern: /\b[A-Za-z]:[\\/](?:(?:Program Files(?: \(x86\))?|[^\\/\s:*?"<>|]+)[\\/])*[^\\/\s:*?"<>|]*(?::\d+)*/g,
    replace: P.PATH,
    mayMatch: (t) => t.includes(':\\') || t.includes(':/'),
  },
  {
    name: 'unc path',
    pattern: /\\\\[^\\\s]+\\[^\s"'<>|]*/g,
    replace: P.PATH,
    mayMatch: (t) => t.includes('\\\\'),
  },
  {
    name: 'posix path',
    pattern: /(?<![\w\])])(?:~|\.{1,2})?\/(?:[\w.@+-]+\/)+[\w.@+-]*(?::\d+)*/g,
    replace: P.PATH,
    mayMatch: (t) => t.includes('/'),
  },
  {
    name: 'posix file',
    pattern: /(?<![\w\])])(?:~|\.{1,2})?\/[\w@+-]+\.[A-Za-z0-9]{1,8}\b(?::\d+)*/g,
    replace: P.PATH,
    mayMatch: (t) => t.includes('/') && t.includes('.'),
  },
  {
    name: 'relative source path',
    pattern:
      /(?<![\w.@-])[\w.@-]{1,100}(?:\/[\w@-][\w.@-]{0,99}){1,16}\.(?:[cm]?[jt]sx?|py|java|go|rb|rs|php|cs|kt|swift|json|ya?ml|toml|env|pem|key)\b(?::\d+)*/g,
    replace: P.PATH,
    mayMatch: (t) => t.includes('/') && t.includes('.'),
  },
  // Any long high-entropy blob (hex digests, base64 secrets): 32+ characters mixing letters and digits.
  {
    name: 'long token',
    pattern: /[A-Za-z0-9+/_]{32,}={0,2}/g,
    replace: (m: string) => (/[0-9]/.test(m) && /[A-Za-z]/.test(m) ? P.REDACTED : m),
    mayMatch: (t) => hasRun(t, 32),
  },
] satisfies RedactionRule[]);

/**
 * True when a key or field name names a secret: it contains `secret`, `password`, `passwd`, `credential` or
 * `privkey`; or its last word is `pass`, `pwd`, `passphrase`, `passcode`, `pin`, `otp`, `token`, `auth`,
 * `authorization`, `bearer`, `cookie`, `signature`, `sig`, `jwt`, `apikey` or `sessionid` (or ends with
 * `token`, `apikey`, `cookie`, `signature`, `authorization`, `sessionid`); or its last two words are
 * `api key`, `access key`, `private key`, `secret key`, `account key`, `signing key`, `encryption key`,
 * `master key`, `auth key` or `session id`. Words are split at camelCase humps, `_`, `-`, `.` and spaces.
 * E.g. `password`, `api_key`, `accessToken`, `client_secret`, `x-api-key`, `privateKey`, `pwd` → true;
 * `max_tokens`, `token_count`, `customerId`, `idempotency_key`, `bypass` → false.
 */
export function isSecretKey(key: string): boolean {
  if (typeof key !== 'string') return false;
  if (SECRET_ANYWHERE.test(key)) return true;
  const words = key
    .slice(-200)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (SECRET_WORDS.has(last) || SECRET_SUFFIXES.some((s) => last.endsWith(s))) return true;
  return words.length >= 2 && SECRET_PAIRS.has(`${words[words.length - 2]}${last}`);
}

/**
 * Removes from `text` everything the model must not see: stack traces, file paths (POSIX, Windows, UNC,
 * `file://`), URLs (with `user:pass@`), host names, `localhost:port`, IPv4/IPv6 addresses, `user:pass@` before a
 * host, bearer/basic tokens, JWTs, API-key shapes (sk-…, ghp_…/github_pat_…, xox…, AKIA…, Stripe sk_live_/rk_live_,
 * Google AIza…/ya29.…), private key blocks, credential header lines, the values of `password=`/`token=`/
 * `secret=`/`api_key=` style keys (`isSecretKey`) and credentials in prose (`with password hunter2`). Each is
 * replaced by a short placeholder (`Placeholder`). Before matching, hidden forms are made plain
 * (`revealHidden`: zero-width and control characters removed, NFKC, mixed-script homoglyphs, percent-encoding
 * outside URLs); the result is that plain text. Ordinary prose survives unchanged, e.g.
 * "amountCents must be a positive integer", "slot 10:00 is taken", "customer cus_42", "e.g. file.txt v1.2.3".
 *
 * Idempotent: `redact(redact(t)) === redact(t)` (the table is applied until it changes nothing, at most
 * `MAX_REDACT_PASSES` times). At most `MAX_REDACT_INPUT_CHARS` characters are read and
 * returned: longer text is cut at a whitespace (so no secret is left half-cut) and ends with `…`.
 * Never longer than `REDACT_GROWTH_FACTOR` × `text.length` + `REDACT_GROWTH_SLACK`.
 *
 * @param text any string.
 * @returns the redacted string (newlines kept).
 * @throws RedactionInputError (`code` 'redact_input_not_string') when `text` is not a string.
 */
export function redact(text: string): string {
  if (typeof text !== 'string') throw new RedactionInputError(text === null ? 'null' : typeof text);
  let cut = text.length > MAX_REDACT_INPUT_CHARS;
  let out = cut ? cutAtWhitespace(text, MAX_REDACT_INPUT_CHARS) : text;
  for (let pass = 0; pass < MAX_REDACT_PASSES; pass++) {
    const next = applyRules(revealHidden(out));
    if (next === out) break;
    out = next;
  }
  if (out.length > MAX_REDACT_INPUT_CHARS - (cut ? 1 : 0)) {
    out = cutAtWhitespace(out, MAX_REDACT_INPUT_CHARS - 1);
    cut = true;
  }
  return cut ? `${out}…` : out;
}

/**
 * One pass: every rule of `REDACTION_RULES`, in order; a rule whose `mayMatch` is false for the text as the rules
 * before it left it is skipped (its pattern cannot match, so it would change nothing).
 */
function applyRules(text: string): string {
  let out = text;
  for (const rule of REDACTION_RULES) {
    if (rule.mayMatch !== undefined && !rule.mayMatch(out)) continue;
    rule.pattern.lastIndex = 0;
    out =
      typeof rule.replace === 'string'
        ? out.replace(rule.pattern, rule.replace)
        : out.replace(rule.pattern, rule.replace);
  }
  return out;
}

/** The first `max` characters of `text`, shortened to end before its last whitespace (or '' when there is none). */
function cutAtWhitespace(text: string, max: number): string {
  const head = text.slice(0, max);
  const lastSpace = head.search(/\s\S*$/);
  return lastSpace > 0 ? head.slice(0, lastSpace) : '';
}
