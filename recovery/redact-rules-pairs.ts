/**
 * Rules of the redaction table (recovery/redact.ts, `REDACTION_RULES`) that read a name and its value: an
 * authorization scheme and its token, a key and its value (`password=…`, `"api_key": "…"`, `AccountId: …`), and
 * prose that introduces a secret ("the passphrase is: …", "das Passwort lautet …", "密码是 …"). Keys are judged by
 * meaning (`keyMeaning`, recovery/redact-keys.ts); nouns and introducers are listed in recovery/redact-prose-words.ts.
 * Pure.
 */
import { keyMeaning, KEY_HINT, SECRET_KEY_SOURCE } from './redact-keys';
import { isBasicCredential, looksLikeSecret } from './redact-patterns';
import {
  DESCRIPTIVE_ENDING,
  mayNameSecret,
  PHRASE_NOUNS,
  SECRET_NOUNS,
  STATE_WORDS,
  STRONG_INTRO,
} from './redact-prose-words';
import { Placeholder, type RedactionRule } from './redact-rule';

const P = Placeholder;

/** A JSON array or object on one line, nested up to 3 levels (brackets paired by kind is not checked). */
const FLAT = '[^[\\]{}\\n]';
const JSON_VALUE = `[[{](?:${FLAT}|[[{](?:${FLAT}|[[{]${FLAT}{0,4096}[\\]}]){0,4096}[\\]}]){0,4096}[\\]}]`;
/**
 * A key=value pair: quote, key, quote, separator (`=`, `:`, `=>`; `]=` after a form's bracketed key,
 * `user[password]=`; a YAML value on the next, indented line, also after `|` or `>`), value (a placeholder, a quoted
 * string — also with escaped quotes, as JSON text inside a JSON string has them, or a Python bytes literal `b'…'` —,
 * a JSON array or object, a scheme and its token, a bare word, or an unterminated quote).
 */
const PAIR_SOURCE = `((?:\\\\?["'])?)(?<![A-Za-z0-9_.-])(${SECRET_KEY_SOURCE})\\1(\\]?[ \\t]*(?:=>|[=:])(?:[ \\t]*[|>][+-]?)?(?:[ \\t]*\\r?\\n[ \\t]+)?[ \\t]*)(\\[[a-z]{2,8}\\]|"(?:[^"\\\\\\n]|\\\\.){0,4096}"|'(?:[^'\\\\\\n]|\\\\.){0,4096}'|\\\\"(?:[^"\\\\\\n]|\\\\[^"\\n]){0,4096}\\\\"|\\\\'(?:[^'\\\\\\n]|\\\\[^'\\n]){0,4096}\\\\'|[bB]'(?:[^'\\\\\\n]|\\\\.){0,4096}'|[bB]"(?:[^"\\\\\\n]|\\\\.){0,4096}"|${JSON_VALUE}|(?:bearer|basic|digest|token|negotiate|ntlm)[ \\t]+[^\\s,;"'&]+|[^\\s&,;"'})[\\]]+|["'][^\\s]{0,4096})`;
/** The same pattern for the values of keys that name nothing (see `pairReplacement`); never exported. */
const INNER_PAIR = new RegExp(PAIR_SOURCE, 'gi');

/** A value that is already a placeholder, quoted or not. */
const PLACEHOLDER_VALUE = /^(?:\\?["'])?\[[a-z]{2,8}\](?:\\?["'])?$/;

/** Not letters of a Latin or Cyrillic word: what may stand before and after a noun. */
const NOT_WORD_BEFORE = '(?<![A-Za-z0-9_\\u00C0-\\u024F\\u0400-\\u04FF\\u1E00-\\u1EFF])';
const NOT_WORD_AFTER = '(?![A-Za-z\\u00C0-\\u024F\\u0400-\\u04FF\\u1E00-\\u1EFF])';
/** An aside between a secret's noun and its value: `Temporary password (valid for 24 hours): x` (at most 80). */
const ASIDE = '(?:[ \\t]*\\([^()\\n]{1,80}\\))?';
const QUOTED =
  '"[^"\\n]{1,200}"|\'[^\'\\n]{1,200}\'|“[^”\\n]{1,200}”|«[^»\\n]{1,200}»|「[^」\\n]{1,200}」|`[^`\\n]{1,200}`';

/**
 * A key=value pair's replacement: the value of a key that names a secret becomes `[redacted]`, of an account key
 * `[account]`. A bare word that only describes the value (`password: required`) stays. The value of a key that names
 * nothing is searched once more for pairs, since the pattern consumed it (`error_code:x?token=y`).
 */
function pairReplacement(outer: boolean) {
  return (m: string, quote: string, key: string, sep: string, value: string): string => {
    const meaning = keyMeaning(key);
    if (meaning === undefined) {
      if (!outer || value.length < 3 || !KEY_HINT.test(value)) return m;
      INNER_PAIR.lastIndex = 0;
      const inner = value.replace(INNER_PAIR, pairReplacement(false));
      return inner === value ? m : `${quote}${key}${quote}${sep}${inner}`;
    }
    if (PLACEHOLDER_VALUE.test(value)) return m;
    const q = /^\\?["']/.exec(value)?.[0] ?? '';
    if (q === '' && STATE_WORDS.has(value.toLowerCase())) return m;
    return `${quote}${key}${quote}${sep}${q}${meaning === 'account' ? P.ACCOUNT : P.REDACTED}${q}`;
  };
}

/**
 * Whether the word after a strong introducer is the secret: not when it describes it (`STATE_WORDS`); after a verb
 * (`is`, `ist`, `est`…), not when it is a lower-case English word with a descriptive ending, nor when it has no
 * ASCII letter or digit ("密码是必填项", "пароль был изменён").
 */
function introducedSecret(core: string, intro: string): boolean {
  if (STATE_WORDS.has(core.toLowerCase())) return false;
  if (/[:=]/.test(intro)) return true;
  return !DESCRIPTIVE_ENDING.test(core) && /[A-Za-z0-9]/.test(core);
}

/** The text of an XML or HTML element whose name (without a namespace prefix) names a secret or an account. */
function elementReplacement(m: string, tag: string, attrs: string, value: string): string {
  const meaning = keyMeaning(tag.slice(tag.lastIndexOf(':') + 1));
  if (meaning === undefined || PLACEHOLDER_VALUE.test(value)) return m;
  return `<${tag}${attrs}>${meaning === 'account' ? P.ACCOUNT : P.REDACTED}</${tag}>`;
}

/** Authorization schemes, XML elements, key=value secrets and credentials in prose. */
export const PAIR_RULES: readonly RedactionRule[] = Object.freeze([
  {
    // `Bearer x`, `Basic dXNlcjpwYXNz`: a token when ≥ 20 characters, or ≥ 8 with a digit, symbol or an inner
    // capital, or ≥ 16 lower-case letters; after `Basic`, also any base64 that decodes to `user:password`
    // (RFC 7617 §2), however short. `Bearer error`, `Basic plan`, `Basic HTTP` and `Basic Authentication` stay.
    name: 'authorization scheme token',
    pattern: /\b(Bearer|Basic|Digest|Token|Negotiate|NTLM)([ \t]+)([A-Za-z0-9\-._~+/]+=*)/gi,
    replace: (m: string, scheme: string, space: string, raw: string) => {
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
  // `<password>…</password>`, `<ns:ApiKey>…</ns:ApiKey>` (SOAP faults and XML APIs echo their requests).
  {
    name: 'secret xml element',
    pattern: /<([A-Za-z_][\w.:-]{0,100})((?:\s[^<>]{0,500})?)>([^<]{1,4096})<\/\1>/g,
    replace: elementReplacement,
    mayMatch: (t) => t.includes('</'),
  },
  // key=value / key: value / "key": "value" / "key" => "value" where the key names a secret or an account.
  {
    name: 'secret key-value',
    pattern: new RegExp(PAIR_SOURCE, 'gi'),
    replace: pairReplacement(true),
    mayMatch: (t) => (t.includes('=') || t.includes(':')) && KEY_HINT.test(t),
  },
  // A command line's `user:password` (curl `-u, --user <user:password>`, `--proxy-user`, curl(1)): the password.
  {
    name: 'command-line user and password',
    pattern: /(^|\s)(-u|-U|--user|--proxy-user)([ \t]+|=)(["']?)([^\s:"']{1,100}):([^\s"']{1,200})\4/g,
    replace: (_m, lead: string, flag: string, sep: string, q: string, user: string) =>
      `${lead}${flag}${sep}${q}${user}:${P.REDACTED}${q}`,
    mayMatch: (t) => /-u|-U|--user|--proxy-user/.test(t),
  },
  // SQL that sets a password: MySQL `IDENTIFIED [WITH plugin] BY [PASSWORD] 'x'` (CREATE USER, ALTER USER, GRANT;
  // MySQL 8.0 Reference Manual §15.7.1.3), `SET PASSWORD … = 'x'`, PostgreSQL `[ENCRYPTED] PASSWORD 'x'` (CREATE ROLE).
  {
    name: 'sql password clause',
    pattern:
      /\b(IDENTIFIED(?:[ \t]+WITH[ \t]+\w+)?[ \t]+BY(?:[ \t]+PASSWORD)?[ \t]+|SET[ \t]+PASSWORD\b[^'"\n=]{0,100}=[ \t]*(?:PASSWORD[ \t]*\([ \t]*)?|PASSWORD[ \t]+)(['"])[^'"\n]{1,200}\2/gi,
    replace: (_m, clause: string, q: string) => `${clause}${q}${P.REDACTED}${q}`,
    mayMatch: (t) => /identified|password/i.test(t),
  },
  // A list or phrase introduced as a secret: "the passphrase is: correct horse", "Backup codes: 48213 90551".
  {
    name: 'secret phrase in prose',
    pattern: new RegExp(
      `${NOT_WORD_BEFORE}((?:${PHRASE_NOUNS})${NOT_WORD_AFTER}${ASIDE})(${STRONG_INTRO})(${QUOTED}|(?:[^\\s.;!?。；"'<>[\\]]|\\.(?=[^\\s.]))(?:[^\\n.;!?。；"'<>[\\]]|\\.(?=[^\\s.])){0,299})`,
      'gi',
    ),
    replace: (m: string, noun: string, intro: string, value: string) => {
      const core = value.trimEnd();
      const words = core.split(/[\s,]+/);
      // Four words or more are the phrase itself, whatever its first word ("correct horse battery staple").
      if (!/^["'“«「`]/.test(core) && words.length < 4 && !introducedSecret(words[0]!, intro)) return m;
      return `${noun}${intro}${P.REDACTED}${value.slice(core.length)}`;
    },
    mayMatch: (t) => /phrase|mnemonic|words|codes|фраза/i.test(t),
  },
  // A credential introduced in prose: `with password hunter2`, `token is abc123def456`, `api key: x`,
  // `le mot de passe est : x`, `пароль: x`, `パスワードは x`; an aside may stand before the intro (`ASIDE`).
  {
    name: 'credential in prose',
    pattern: new RegExp(
      `${NOT_WORD_BEFORE}((?:${SECRET_NOUNS})${NOT_WORD_AFTER}${ASIDE})(?:(${STRONG_INTRO})|([ \\t]+))(${QUOTED}|[^\\s"'<>[\\]]{1,200})`,
      'gi',
    ),
    replace: (m: string, noun: string, strong: string | undefined, weak: string | undefined, value: string) => {
      const intro = strong ?? weak ?? '';
      if (/^["'“«「`]/.test(value)) return `${noun}${intro}${value[0]}${P.REDACTED}${value[value.length - 1]}`;
      const core = value.replace(/[.,;:!?)]+$/, '');
      if (core === '' || core.startsWith('(')) return m; // an aside longer than ASIDE, not a value
      const secret =
        strong !== undefined ? introducedSecret(core, strong) : core.length >= 4 && looksLikeSecret(noun, core);
      return secret ? `${noun}${intro}${P.REDACTED}${value.slice(core.length)}` : m;
    },
    mayMatch: mayNameSecret,
  },
]);
