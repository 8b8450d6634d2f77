/**
 * The first half of the redaction table (recovery/redact.ts, `REDACTION_RULES`), in order: whole lines (stack
 * frames), private key blocks and credential headers, URLs, token shapes, key=value secrets and credentials in
 * prose. Its rules run before those of recovery/redact-rules-locations.ts. Pure.
 */
import { URL_SOURCE } from './redact-normalize';
import {
  CREDENTIAL_HEADERS,
  CREDENTIAL_NOUN_HINT,
  CREDENTIAL_NOUNS,
  isSecretKey,
  SECRET_KEY_HINT,
  SECRET_KEY_SOURCE,
} from './redact-keys';
import { FRAME_LOCATION, isBasicCredential, looksLikeSecret } from './redact-patterns';
import { Placeholder, type RedactionRule } from './redact-rule';

const P = Placeholder;

/** Stack frames, private keys, credential headers, URLs, tokens and secrets by key or noun. */
/*
 * Frozen here (shallow), as `REDACTION_RULES` is: Temporal deep-freezes the exports of preloaded workflow modules
 * but stops at an object that is already frozen (@temporalio/worker, reusable-vm `deepFreeze`), so the rules'
 * RegExps stay writable — `String.prototype.replace` with a global pattern writes its `lastIndex` (ECMA-262,
 * RegExp.prototype[@@replace]).
 */
export const SECRET_RULES: readonly RedactionRule[] = Object.freeze([
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
]);
