/**
 * Error codes and messages read as words (docs/DESIGN.md, "Facts, not libraries"): a code such as
 * `RATE_LIMIT`, `rateLimitExceeded`, `EXPIRED_AUTHENTICATION` or `ratelimited` and a sentence such as "You have
 * reached your secondly limit" are split into lower-case tokens and matched against one vocabulary of concepts,
 * each a set of alternatives whose stems must all appear (`limit*` matches `limit`, `limited`, `limits`). No phrase
 * list of one library: a new wording that uses the same words routes the same way.
 *
 * A false positive here costs one postcondition read (`already`) or one bounded retry of a read; a write is never
 * replayed on words alone (recovery/classify/by-facts.ts takes "may have been sent" for words).
 * Pure: no I/O. The vocabulary is built on first use.
 */
import type { ErrorKind } from './kinds';

/** What a code or a sentence may say. Order in `CONCEPTS` decides between concepts that both match. */
export type Concept =
  | 'programming_error'
  | 'rate_limited'
  | 'quota'
  | 'billing'
  | 'scope_missing'
  | 'credential_expired'
  | 'credential_invalid'
  | 'unknown_operation'
  | 'forbidden'
  | 'unauthorized'
  | 'already'
  | 'not_found'
  | 'conflict'
  | 'incompatible_state'
  | 'connect_timeout'
  | 'too_large'
  | 'invalid_result'
  | 'invalid'
  | 'out_of_memory'
  | 'connection_refused'
  | 'connection_lost'
  | 'overloaded'
  | 'unavailable'
  | 'timeout';

/** One concept: any alternative whose stems all appear; `source` says where the words come from. */
interface ConceptRow {
  readonly concept: Concept;
  readonly any: readonly (readonly string[])[];
  readonly source: string;
}

/** What each concept means, as a kind of the one meaning table (recovery/classify/kinds.ts). */
export const CONCEPT_KINDS: Readonly<Record<Concept, ErrorKind>> = Object.freeze({
  programming_error: 'programming_error',
  rate_limited: 'rate_limited',
  quota: 'quota_exhausted',
  billing: 'billing',
  scope_missing: 'scope_missing',
  credential_expired: 'credential_expired',
  credential_invalid: 'auth_failed',
  unknown_operation: 'unknown_operation',
  forbidden: 'forbidden',
  unauthorized: 'auth_failed',
  already: 'already',
  not_found: 'not_found',
  conflict: 'conflict',
  incompatible_state: 'business_rule',
  too_large: 'invalid_argument',
  invalid_result: 'invalid_result',
  invalid: 'invalid_argument',
  out_of_memory: 'unavailable',
  connection_refused: 'not_sent',
  connection_lost: 'connection_lost',
  overloaded: 'unavailable',
  unavailable: 'unavailable',
  connect_timeout: 'connect_timeout',
  timeout: 'client_timeout',
});

/**
 * The words of `text`, lower case: snake, kebab, dotted and spaced words split; camel and Pascal case split at their
 * humps (`rateLimitExceeded` → rate, limit, exceeded; `HTTPError` → http, error); digits apart from letters
 * (`sha256` → sha, 256). Both `tokens` and the redaction's `keyWords` (recovery/redact-keys.ts) split this way.
 */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(?=[0-9])|([0-9])(?=[A-Za-z])/g, '$1$2 ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** `text` as word tokens (`splitWords`): at most 64 of its first 2,000 characters. */
export function tokens(text: string): string[] {
  return splitWords(text.slice(0, 2_000)).slice(0, 64);
}

/** True when a token matches a stem: `limit*` by prefix, anything else whole. */
function matches(token: string, stem: string): boolean {
  return stem.endsWith('*') ? token.startsWith(stem.slice(0, -1)) : token === stem;
}

/**
 * True when `words` carry the alternative: every stem appears; an alternative whose first stem starts with `=` must be
 * the whole text (`['=timeout']` is a code `TIMEOUT`, not the word "timeout" in "timeout must be positive").
 */
function carries(words: readonly string[], alt: readonly string[]): boolean {
  const first = alt[0];
  if (first?.startsWith('=')) {
    const exact = [first.slice(1), ...alt.slice(1)];
    return words.length === exact.length && exact.every((stem, i) => matches(words[i]!, stem));
  }
  return alt.every((stem) => words.some((w) => matches(w, stem)));
}

// prettier-ignore
const ROWS = (): readonly ConceptRow[] => [
  { concept: 'programming_error', source: 'Node.js docs, "Errors": MODULE_NOT_FOUND, a call stack overflow (RangeError "Maximum call stack size exceeded"), "x is not a function"; the tool\'s own code is broken (PALADIN: ModuleNotFoundError, ImportError, StackOverflowError); ECMA-262 §20.5.5: a SyntaxError or ReferenceError that JSON.parse did not raise is the tool\'s own code (a module that does not link: "does not provide an export named")',
    any: [['module', 'not', 'found'], ['cannot', 'find', 'module'], ['not', 'a', 'function'], ['maximum', 'call', 'stack'], ['stack', 'overflow*'], ['recursion'], ['cannot', 'read', 'propert*'], ['import', 'error'],
      ['=syntax', 'error'], ['=reference', 'error'], ['does', 'not', 'provide', 'export*']] },
  { concept: 'rate_limited', source: 'RFC 6585 §4 (429 Too Many Requests); Google API errors `rateLimitExceeded`; AWS `Throttling`; Slack `ratelimited`; Telegram "Too Many Requests: retry after N"',
    any: [['rate', 'limit*'], ['ratelimit*'], ['throttl*'], ['too', 'many', 'requests'], ['flood*'], ['slow', 'down'], ['secondly', 'limit*'], ['reached', 'limit*']] },
  { concept: 'quota', source: 'Google API errors `quotaExceeded`, `dailyLimitExceeded` ("not cured within the run"); AWS `ResourceLimitExceeded`; RFC 5530 OVERQUOTA; RFC 959 552 "Exceeded storage allocation"',
    any: [['quota*'], ['overquota'], ['daily', 'limit*'], ['resource', 'limit*'], ['storage', 'allocation']] },
  { concept: 'billing', source: 'RFC 9110 §15.5.3 (402 Payment Required); Stripe and OpenAI billing errors',
    any: [['billing'], ['payment', 'required'], ['payment', 'method'], ['insufficient', 'quota'], ['insufficient', 'credit*'], ['out', 'of', 'credit*']] },
  { concept: 'scope_missing', source: 'RFC 6750 §3.1 `insufficient_scope`; OAuth 2.0 scopes (RFC 6749 §3.3)',
    any: [['scope*', 'insufficient'], ['scope*', 'missing'], ['scope*', 'required'], ['scope*', 'granted'], ['scope*', 'not']] },
  { concept: 'credential_expired', source: 'RFC 6750 §3.1 `invalid_token` ("expired, revoked, malformed"); OAuth 2.0 token lifetimes',
    any: [['expir*', 'token*'], ['expir*', 'session*'], ['expir*', 'oauth'], ['expir*', 'credential*'], ['expir*', 'authenticat*'], ['expir*', 'jwt'], ['expir*', 'login']] },
  { concept: 'credential_invalid', source: 'RFC 9110 §15.5.2 (401); RFC 6750 §3.1 `invalid_token`; RFC 4954 §6 (SMTP 535 "Authentication credentials invalid"); SQL Server 18456 "Login failed"; AWS `InvalidAccessKeyId`',
    any: [['invalid', 'token*'], ['invalid', 'credential*'], ['invalid', 'authoriz*'], ['invalid', 'authenticat*'], ['invalid', 'api', 'key'], ['invalid', 'apikey'],
      ['invalid', 'login'], ['login', 'fail*'], ['invalid', 'access', 'key*'], ['invalid', 'password*'], ['invalid', 'signature'], ['=key', 'invalid'], ['bad', 'credential*'], ['bad', 'token*'], ['wrong', 'password*'], ['revoked', 'token*'],
      ['malformed', 'token*'], ['unauthenticated'], ['authenticat*', 'fail*'], ['authenticat*', 'required'], ['failed', 'authenticate'],
      ['authorization', 'violation'], ['not', 'authenticated']] },
  { concept: 'unknown_operation', source: 'JSON-RPC 2.0 §5.1 (-32601 Method not found); MCP "Unknown tool"; RFC 9110 §15.6.2 (501)',
    any: [['unknown', 'method*'], ['unknown', 'tool*'], ['unknown', 'command*'], ['unknown', 'endpoint*'], ['unknown', 'operation*'], ['method', 'not', 'found'],
      ['tool', 'not', 'found'], ['unsupported', 'method*'], ['unsupported', 'operation*'], ['no', 'such', 'method*']] },
  { concept: 'forbidden', source: 'RFC 9110 §15.5.4 (403 Forbidden); POSIX EACCES/EPERM; RFC 3463 X.7.1 (delivery not authorized)',
    any: [['forbidden'], ['permission*'], ['not', 'allowed'], ['access', 'denied'], ['access', 'refused'], ['not', 'enough', 'rights'], ['insufficient', 'access*'], ['insufficient', 'rights'], ['insufficient', 'privilege*'],
      ['not', 'authorized', 'to'], ['blocked'], ['denied'], ['prohibited']] },
  { concept: 'unauthorized', source: 'RFC 9110 §15.5.2: 401 is named "Unauthorized" but means unauthenticated; the word alone, without a forbidden reason, asks for a credential',
    any: [['unauthorized'], ['unauthorised']] },
  { concept: 'already', source: 'docs/DESIGN.md "Already done is done": refusals that say the asked-for state holds (409/412/422 "already", `already_exists`, "not modified")',
    any: [['already'], ['duplicat*'], ['not', 'modified'], ['eexist'], ['member', 'exists'], ['resource', 'exists'], ['record', 'exists'], ['entry', 'exists'], ['file', 'exists'], ['key', 'exists']] },
  { concept: 'not_found', source: 'RFC 9110 §15.5.5 (404); POSIX ENOENT; RFC 3463 X.1.1 (bad destination mailbox)',
    any: [['not', 'found'], ['notfound'], ['no', 'such'], ['does', 'not', 'exist'], ['doesnt', 'exist'], ['doesn', 't', 'exist'], ['unknown', 'chat'], ['unknown', 'user'], ['unknown', 'channel'],
      ['no', 'rows'], ['0', 'rows']] },
  { concept: 'conflict', source: 'RFC 9110 §15.5.10 (409) and §15.5.13 (412: a version that no longer matches; an optimistic lock is one)',
    any: [['conflict*'], ['wrong', 'sequence'], ['wrong', 'last', 'sequence'], ['version', 'mismatch'], ['sequence', 'mismatch'], ['optimistic', 'lock*']] },
  { concept: 'incompatible_state', source: 'RFC 9110 §15.5.21 (422: the request is well formed but cannot be applied to the current state)',
    any: [['non', 'numeric'], ['wrong', 'type'], ['wrongtype'], ['not', 'a', 'number']] },
  { concept: 'connect_timeout', source: 'docs/DESIGN.md "Phases": a pool or connect timeout happens before the request left (knex acquireConnectionTimeout, pg-pool "timeout exceeded when trying to connect"); said by words alone it may still have been sent',
    any: [['acquir*', 'connection*'], ['trying', 'to', 'connect'], ['timed', 'out', 'connecting'], ['timeout*', 'connecting']] },
  { concept: 'timeout', source: 'RFC 9110 §15.5.9 (408) and §15.6.5 (504); POSIX ETIMEDOUT; gRPC DEADLINE_EXCEEDED',
    any: [['=timeout*'], ['=etimedout'], ['=request', 'timeout*'], ['=deadline', 'exceeded'], ['timed', 'out'], ['time', 'out'], ['timeout*', 'exceeded'], ['timeout*', 'expired'],
      ['timeout*', 'occurred'], ['timeout*', 'error'], ['timeout*', 'after'], ['request', 'timeout*'], ['gateway', 'timeout*'], ['upstream', 'timeout*'], ['read', 'timeout*'],
      ['socket', 'timeout*'], ['connection', 'timeout*'], ['operation', 'timeout*'], ['query', 'timeout*'], ['deadline', 'exceeded']] },
  { concept: 'too_large', source: 'RFC 9110 §15.5.14 (413), §15.5.15 (414), §15.5.17 (416); RFC 3463 X.3.4 (message too big)',
    any: [['too', 'large'], ['too', 'long'], ['too', 'big'], ['too', 'many', 'tokens'], ['too', 'many', 'items'], ['exceed*'], ['max', 'payload'], ['payload', 'too*'], ['larger', 'than'],
      ['range', 'not', 'satisfiable'], ['invalid', 'range']] },
  { concept: 'invalid_result', source: 'docs/DESIGN.md "Routes", Reject: a result that is not a usable answer (a sign-in page where JSON was expected); a word about the result does not make the arguments invalid',
    any: [['invalid', 'result*'], ['invalid', 'response*'], ['malformed', 'response*'], ['unexpected', 'response*'], ['doctype', 'html']] },
  { concept: 'invalid', source: 'RFC 9110 §15.5.1 (400) and §15.5.21 (422); JSON-RPC 2.0 §5.1 (-32602 Invalid params)',
    any: [['invalid*'], ['validat*'], ['malformed'], ['bad', 'request'], ['is', 'empty'], ['text', 'empty'], ['required'], ['must', 'be'], ['not', 'valid'], ['syntax']] },
  { concept: 'out_of_memory', source: 'Redis "OOM command not allowed when used memory > maxmemory" (refused before it runs); memcached binary protocol status 0x0082 Out of memory',
    any: [['out', 'of', 'memory'], ['oom']] },
  { concept: 'connection_refused', source: 'POSIX ECONNREFUSED (connect(2)): nothing was sent',
    any: [['connection', 'refused'], ['econnrefused']] },
  { concept: 'connection_lost', source: 'POSIX ECONNRESET and EPIPE (the peer closed the connection): a request on it may have been sent',
    any: [['connection', 'closed'], ['connection', 'lost'], ['connection', 'reset'], ['connection', 'terminat*'], ['socket', 'closed'], ['econnreset'], ['broken', 'pipe']] },
  { concept: 'overloaded', source: 'RFC 9110 §15.6.4 (503: overloaded); Anthropic `overloaded_error`',
    any: [['overload*'], ['busy'], ['capacity'], ['congest*'], ['too', 'many', 'connections']] },
  { concept: 'unavailable', source: 'RFC 9110 §15.6.4 (503 Service Unavailable); RFC 5321 §4.2.1 (4yz: try again later); POSIX EAGAIN',
    any: [['unavailable'], ['not', 'available'], ['try', 'again'], ['temporar*'], ['no', 'responders'], ['greylist*'], ['later']] },
];

let rows: readonly ConceptRow[] | undefined;

/** The vocabulary, first match first: one row per concept with its source (for the docs and the tests). */
export function vocabulary(): readonly ConceptRow[] {
  rows ??= ROWS();
  return rows;
}

/** The concepts `text` says, in vocabulary order. */
export function conceptsOf(text: string | undefined): Concept[] {
  if (text === undefined || text === '') return [];
  const words = tokens(text);
  if (words.length === 0) return [];
  return vocabulary()
    .filter((row) => row.any.some((alt) => carries(words, alt)))
    .map((row) => row.concept);
}

/** A text that is a markup page (a sign-in page where data was expected): the result, not the arguments. */
const MARKUP = /^\s*<(?:!doctype\s+html|html)\b/i;

/** The concept `text` says first: a markup page is an unusable result; else its first concept in vocabulary order. */
export function conceptOf(text: string | undefined): Concept | undefined {
  return text !== undefined && MARKUP.test(text) ? 'invalid_result' : conceptsOf(text)[0];
}

/** The kind `text` says (recovery/classify/kinds.ts), or `undefined`. */
export function kindOfWords(text: string | undefined): ErrorKind | undefined {
  const concept = conceptOf(text);
  return concept === undefined ? undefined : CONCEPT_KINDS[concept];
}

/** The first concept of `texts` (in the order given, each in vocabulary order), or `undefined`. */
export function firstConcept(texts: readonly (string | undefined)[]): Concept | undefined {
  for (const t of texts) {
    const c = conceptOf(t);
    if (c !== undefined) return c;
  }
  return undefined;
}
