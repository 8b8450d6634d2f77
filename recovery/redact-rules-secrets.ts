/**
 * The first half of the redaction table (recovery/redact.ts, `REDACTION_RULES`), in order: whole lines (stack
 * frames), private key blocks and credential headers, URLs, then e-mail addresses, token shapes and account ids
 * (recovery/redact-rules-tokens.ts), then key=value secrets and credentials in prose (recovery/redact-rules-pairs.ts).
 * Its rules run before those of recovery/redact-rules-locations.ts. Pure.
 */
import { URL_SOURCE } from './redact-normalize';
import { CREDENTIAL_HEADERS } from './redact-keys';
import { FRAME_LOCATION } from './redact-patterns';
import { Placeholder, type RedactionRule } from './redact-rule';
import { PAIR_RULES } from './redact-rules-pairs';
import { TOKEN_RULES } from './redact-rules-tokens';

const P = Placeholder;

/** Stack frames, private keys, credential headers, URLs, tokens and secrets by key or noun. */
/*
 * Frozen here (shallow), as `REDACTION_RULES` is: Temporal deep-freezes the exports of preloaded workflow modules
 * but stops at an object that is already frozen (@temporalio/worker, reusable-vm `deepFreeze`), so the rules'
 * RegExps stay writable — `String.prototype.replace` with a global pattern writes its `lastIndex` (ECMA-262,
 * RegExp.prototype[@@replace]).
 */
export const SECRET_RULES: readonly RedactionRule[] = Object.freeze([
  // Stack frames: V8 (`at fn (file:1:2)`, `at file:1:2`, `at async fn`, `at <anonymous>`), Java, PHP, Python.
  {
    name: 'stack frame line',
    pattern: new RegExp(
      `^[ \\t]*at (?:[^\\n]*?\\(${FRAME_LOCATION}\\)|(?:async )?\\S*[/\\\\.]\\S*:\\d+:\\d+|<anonymous>)[ \\t]*\\r?$`,
      'gm',
    ),
    replace: P.STACK,
    mayMatch: (t) => t.includes('at '), // every match has `at ` after the indent
  },
  // PHP's `getTraceAsString()`: `#0 /var/www/db.php(12): PDO->__construct('mysql:host=…', 'user', 'password')`,
  // `#1 [internal function]: …`, `#2 {main}`: the arguments may be credentials, so the whole line goes.
  {
    name: 'php frame line',
    pattern: /^[ \t]*#\d{1,4} (?:[^\n]{1,500}\(\d+\): [^\n]*|\[internal function\]: [^\n]*|\{main\})$/gm,
    replace: P.STACK,
    mayMatch: (t) => t.includes('#'),
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
  // whatever could still be base64 or a PEM header after BEGIN goes too: over-redaction rather than a leak. Its line
  // breaks may be escaped (`\n` in an environment variable or JSON text, once or more).
  {
    name: 'private key block',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=\s:,.]|\\+[nrt]|-(?!----))*(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----)?/g,
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
  ...TOKEN_RULES,
  ...PAIR_RULES,
]);
