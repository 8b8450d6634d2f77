/**
 * The second half of the redaction table (recovery/redact.ts, `REDACTION_RULES`), in order: IP addresses, host
 * names, `user:password@` before a host, file paths, and last any token-shaped string. Pure.
 */
import { isTokenShaped, MIN_TOKEN_RUN } from './redact-entropy';
import { HEX4, HOST_PATH, hasRun, hostOrUrl, LABEL, NOT_A_TLD, TLDS } from './redact-patterns';
import { Placeholder, type RedactionRule } from './redact-rule';

const P = Placeholder;

/** Addresses, hosts, paths and long tokens; they run after `SECRET_RULES`. */
/*
 * Frozen here (shallow), as `REDACTION_RULES` is: Temporal deep-freezes the exports of preloaded workflow modules
 * but stops at an object that is already frozen (@temporalio/worker, reusable-vm `deepFreeze`), so the rules'
 * RegExps stay writable — `String.prototype.replace` with a global pattern writes its `lastIndex` (ECMA-262,
 * RegExp.prototype[@@replace]).
 */
export const LOCATION_RULES: readonly RedactionRule[] = Object.freeze([
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
      `\\b(ECONN[A-Z]+|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|getaddrinfo|[Cc]onnect(?:ed|ing|ion)?(?:[ \\t]+to)?(?:[ \\t]+server(?:[ \\t]+at)?)?|[Hh]ost(?:name)?|[Ss]erver(?:[ \\t]+at)?|[Uu]pstream|[Rr]esolv(?:e|ing))([ \\t]+)("?)(${LABEL}(?:\\.${LABEL}){0,8})\\3(:\\d{1,5})?(?![\\w.-])`,
      'g',
    ),
    replace: (m: string, word: string, space: string, quote: string, name: string, port: string | undefined) => {
      const isHost =
        /^(?:E[A-Z_]+|getaddrinfo)$/.test(word) ||
        port !== undefined ||
        (quote !== '' && /host|server/i.test(word)) || // libpq: `on host "pg1"`, `to server at "pg1"`
        /\.[a-z]{2,24}$/.test(name) ||
        (/-/.test(name) && /[a-z]/.test(name));
      return isHost && !/^\d+$/.test(name) ? `${word}${space}${quote}${P.HOST}${quote}` : m;
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
  // Token-shaped strings: a run of token characters that reads as random (recovery/redact-entropy.ts: length,
  // mixed classes, short unpronounceable words, Shannon entropy); a sentence's trailing full stop stays outside.
  {
    name: 'token-shaped string',
    pattern: /[A-Za-z0-9+/_=.~-]{16,}/g,
    replace: (m: string) => {
      const core = m.replace(/[.~-]+$/, '');
      return isTokenShaped(core) ? `${P.REDACTED}${m.slice(core.length)}` : m;
    },
    mayMatch: (t) => hasRun(t, MIN_TOKEN_RUN),
  },
]);
