/**
 * Pattern pieces and replacement helpers of the redaction rules (recovery/redact-rules-*.ts): host-name parts
 * (RFC 1035, RFC 1123), stack-frame locations, and the checks a replacement makes on a match. Pure; the one piece
 * of module state is `longestRun`'s one-entry memo of a pure function.
 */
import { Placeholder } from './redact-rule';

const P = Placeholder;

/** Top-level domains always taken as host names, whatever the labels (so `index.ts`, `amount.value` and `e.g.` survive). */
export const TLDS =
  'com|net|org|io|dev|app|ai|cloud|internal|local|localdomain|lan|corp|intranet|svc|cluster|invalid|gov|edu|mil|int|arpa|test|example|onion|consul|biz|info|xyz|tech|site|online|run|sh|co|uk|de|fr|eu|nl|jp|cn|ru|br|au|ca|ch|se|us|kr|tw|hk|sg|nz|za|mx|cz|hu|ie|dk|fi|il|ua|tr|vn|cl|ro|gr';

/**
 * Last labels that end a dotted field path or file name, not a host, even with a hyphen or digit label before
 * them (`items.sku-1.id`, `config.v1.yaml`): field-like two-letter words and file extensions.
 */
export const NOT_A_TLD = new Set(
  (
    'id|no|to|at|by|is|as|do|go|so|me|my|am|pm|mm|cm|km|kg|lb|ms|st|hr|mo|ml|md|py|rs|cc|ps|js|ts|' +
    'txt|json|jsonl|yaml|yml|toml|xml|html|htm|css|csv|tsv|log|env|ini|cfg|conf|lock|png|jpg|jpeg|gif|svg|pdf|' +
    'zip|gz|tar|tgz|exe|dll|so|bin|sql|db|sqlite|pem|crt|cer|key|proto|map|vue|php|cs|swift|scala|java|kt|go|rb|' +
    'rs|cpp|hpp|mjs|cjs|tsx|jsx|mdx|sh|bash|zsh|bat|ps1|wasm|class|jar|whl|egg|tmp|bak|old|orig|swp'
  ).split('|'),
);

export const HEX4 = '[0-9A-Fa-f]{1,4}';
/** One DNS label, lower case (RFC 1035 §2.3.1 with digits allowed first, RFC 1123 §2.1). */
export const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A path after a host (`hooks.slack.com/services/…`): the whole becomes `[url]`. */
export const HOST_PATH = '(?:\\/[^\\s"\'<>`]*)?';

/**
 * The location inside a stack frame's parentheses: `file.ext:line[:col]` (V8, Java `Pay.java:42`), a path or
 * module with `:line:col` (`node:internal/x:95:5`), or `native`, `index N`, `<anonymous>`, `unknown location`.
 * A bare `(10:30)` or `(ratio 3:2)` is not one.
 */
export const FRAME_LOCATION =
  '(?:[^()\\n]{0,500}\\.[A-Za-z][A-Za-z0-9]{0,9}:\\d+(?::\\d+)?|[^()\\n]{0,500}[A-Za-z/\\\\][^():\\n]{0,200}:\\d+:\\d+|native|index \\d+|<anonymous>|unknown location)';

/** Token characters (`[A-Za-z0-9+/_=.~-]`), by ASCII code. */
const TOKEN_CHAR = ((): Uint8Array => {
  const table = new Uint8Array(128);
  for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_=.~-') table[c.charCodeAt(0)] = 1;
  return table;
})();
/** Longest run `longestRun` reports; every caller asks for fewer. */
const RUN_CAP = 32;
/** A one-entry memo of `longestRun` (the same answer with or without it): rules of one pass ask about one text. */
let memoText: string | undefined;
let memoRun = 0;

/** The longest run of token characters in `text`, capped at `RUN_CAP`. */
function longestRun(text: string): number {
  if (text === memoText) return memoRun;
  let run = 0;
  let best = 0;
  for (let i = 0; i < text.length && best < RUN_CAP; i++) {
    const c = text.charCodeAt(i);
    run = c < 128 && TOKEN_CHAR[c] === 1 ? run + 1 : 0;
    if (run > best) best = run;
  }
  memoText = text;
  memoRun = best;
  return best;
}

/**
 * True when `text` has `min` (at most 32) token characters (`[A-Za-z0-9+/_=.~-]`) in a row: the precheck of the
 * 'vendor-prefixed token' and 'token-shaped string' rules, whose matches hold such runs.
 */
export function hasRun(text: string, min: number): boolean {
  return longestRun(text) >= min;
}

/** `[host]`, or `[url]` when a path follows the host. Trailing sentence punctuation stays outside. */
export function hostOrUrl(path: string | undefined): string {
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
export function isBasicCredential(token: string): boolean {
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
export function looksLikeSecret(noun: string, value: string): boolean {
  if (/^(?:pass|pwd|pin|otp)/i.test(noun)) {
    return value.length >= 4 && (/\d/.test(value) || /[A-Z]/.test(value.slice(1)) || /[^A-Za-z0-9-]/.test(value));
  }
  return (
    value.length >= 6 &&
    /[A-Za-z]/.test(value) &&
    (/\d/.test(value) || /[A-Z]/.test(value.slice(1)) || /[^A-Za-z0-9-]/.test(value))
  );
}
