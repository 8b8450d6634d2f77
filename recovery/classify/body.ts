/**
 * What a response body says, in the shapes APIs really use: a structured error code and message, and
 * field-level validation errors.
 *
 * Shapes read (first match wins):
 * - code: `code`, `error_code`, `errorCode`, `error` (a bare token), `error.code`, `error.type`, `error.status`
 *   (Google).
 * - message: `message`, `error.message`, `error` (a sentence), `error_description` (OAuth, RFC 6749 §5.2),
 *   `detail` (a string: RFC 9457 problem details), `title`.
 * - field errors: `errors: [{field|path|loc|param|name|attribute|property|pointer, message|msg|detail|...}]`,
 *   JSON:API `errors[].source.pointer|parameter` (JSON Pointer, RFC 6901), FastAPI/pydantic `detail: [{loc, msg}]`,
 *   zod/tRPC-style `issues: [{path, message}]`, Rails-style `errors: {field: ["msg"]}`, Google
 *   `error.details[].fieldViolations[{field, description}]`, OpenAI / Stripe `param` (top level or in `error`).
 * A string body that looks like JSON is parsed first. Never throws.
 * Pure: no I/O.
 */
import { pathNamesSecret } from '../redact-keys';
import { MAX_RECEIVED_CHARS } from '../failure';
import type { FieldIssue } from '../failure';
import { asArray, isObjectLike, ownKeys, readProp, renderValue } from './safe';
import {
  MAX_ISSUE_TEXT_CHARS,
  pathLabel,
  plainPath,
  publicText,
  quoted,
  truncate,
  RECEIVED_NOT_REPORTED,
  SERVER_REFUSED,
} from './text';

/** At most this many field issues are taken from one body. */
export const MAX_BODY_FIELD_ISSUES = 20;
/** Bodies longer than this (characters) are not parsed as JSON. */
const MAX_JSON_BODY_CHARS = 1_000_000;

/** The structured facts of a body. `code` is lower-cased for matching. */
export interface BodyFacts {
  code?: string;
  message?: string;
  /** Field-level errors as field issues (redacted, truncated). */
  fieldIssues: FieldIssue[];
  /**
   * Every structured word the body gives for the error, for the vocabulary (recovery/classify/words.ts): `code`,
   * `error`, `category`, `errorType`/`error_type`, `type`, `reason`, the problem details' `title` (RFC 9457 §3.1.3),
   * `errors[].code`/`errors[].reason` (GitHub, Google), `error.details[].reason` (Google AIP-193 `ErrorInfo`) and
   * `errors[].extensions.code` (GraphQL spec §7.1.2). At most 8, as given.
   */
  words: string[];
  /** The server's wait hint in the body, in ms: `retry_after`/`retryAfter` in seconds (Telegram, Slack), top level or under `parameters`. */
  retryAfterMs?: number;
}

/** `body`, with a JSON-looking string of at most `maxChars` (trimmed) parsed; else the string itself. */
export function parseBody(body: unknown, maxChars = MAX_JSON_BODY_CHARS): unknown {
  if (typeof body !== 'string') return body;
  const t = body.trim();
  if (t.length > maxChars || !(t.startsWith('{') || t.startsWith('['))) return body;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return body;
  }
}

const TOKEN = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

function codeLike(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  return typeof v === 'string' && TOKEN.test(v.trim()) ? v.trim() : undefined;
}

function messageLike(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function readCode(body: unknown): string | undefined {
  const error = readProp(body, 'error');
  return (
    codeLike(readProp(body, 'code')) ??
    codeLike(readProp(body, 'error_code')) ??
    codeLike(readProp(body, 'errorCode')) ??
    codeLike(error) ??
    codeLike(readProp(error, 'code')) ??
    codeLike(readProp(error, 'type')) ??
    codeLike(readProp(error, 'status'))
  );
}

function readMessage(body: unknown): string | undefined {
  const error = readProp(body, 'error');
  const detail = readProp(body, 'detail');
  return (
    messageLike(readProp(body, 'message')) ??
    messageLike(readProp(error, 'message')) ??
    (codeLike(error) === undefined ? messageLike(error) : undefined) ??
    messageLike(readProp(body, 'error_description')) ??
    messageLike(readProp(body, 'description')) ??
    messageLike(detail) ??
    messageLike(readProp(body, 'title'))
  );
}

/** Segments of a field reference: `items[0].amount`, `items.0.amount`, or a JSON Pointer `/data/attributes/x`. */
function pathFrom(ref: unknown, kind: 'pointer' | 'loc' | 'auto'): (string | number)[] | undefined {
  const seg = (s: string | number): string | number =>
    typeof s === 'number' ? s : /^(?:0|[1-9]\d{0,8})$/.test(s) ? Number(s) : s;
  const arr = asArray(ref);
  if (arr) {
    const parts = arr.filter(
      (p): p is string | number => typeof p === 'string' || (typeof p === 'number' && Number.isInteger(p)),
    );
    // FastAPI prefixes the location of the value: body, query, path, header, cookie.
    if (kind === 'loc' && typeof parts[0] === 'string' && /^(?:body|query|path|header|cookie)$/.test(parts[0]))
      parts.shift();
    return parts.slice(0, 32).map(seg);
  }
  if (typeof ref !== 'string' || ref.length > 500) return undefined;
  if (ref.startsWith('/') || kind === 'pointer') {
    const parts = ref
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    // JSON:API: /data/attributes/<field>
    if (parts[0] === 'data' && (parts[1] === 'attributes' || parts[1] === 'relationships')) parts.splice(0, 2);
    return parts.slice(0, 32).map(seg);
  }
  if (ref === '') return [];
  return ref
    .split(/\.|\[(\d+)\]/)
    .filter((p): p is string => p !== undefined && p !== '')
    .slice(0, 32)
    .map(seg);
}

/**
 * A field a server refused, in the router's words (`expected`: `SERVER_REFUSED`; `suggestion`: fix it), with what
 * the server said of it as `serverSaid` (docs/DESIGN.md, "Whose words reach the model"). A path the server named is
 * cut before its first segment that is not a plain identifier (`plainPath`); the rest goes into `serverSaid`.
 */
export function toIssue(
  rawPath: (string | number)[],
  message: string | undefined,
  received: unknown,
  hasReceived: boolean,
): FieldIssue {
  const path = plainPath(rawPath);
  const said = quoted(
    path.length < rawPath.length ? `${pathLabel(rawPath.slice(path.length))}: ${message ?? ''}` : message,
  );
  return {
    path,
    expected: SERVER_REFUSED,
    received: !hasReceived
      ? RECEIVED_NOT_REPORTED
      : pathNamesSecret(rawPath)
        ? '[redacted]'
        : truncate(publicText(renderValue(received), 10 * MAX_RECEIVED_CHARS), MAX_RECEIVED_CHARS),
    suggestion: truncate(`fix ${pathLabel(path)} and call again`, MAX_ISSUE_TEXT_CHARS),
    ...(said === undefined ? {} : { serverSaid: said }),
  };
}

const FIELD_KEYS = [
  'field',
  'path',
  'loc',
  'param',
  'parameter',
  'name',
  'attribute',
  'property',
  'pointer',
  'location',
];
const MESSAGE_KEYS = ['message', 'msg', 'detail', 'description', 'title', 'reason', 'error'];
const VALUE_KEYS = ['input', 'value', 'rejectedValue', 'rejected_value', 'received'];

function issueFromItem(item: unknown): FieldIssue | undefined {
  // A GraphQL error's `path` is the response field that failed, not an argument (GraphQL spec §7.1.2).
  if (!isObjectLike(item) || readProp(item, 'locations') !== undefined) return undefined;
  let path: (string | number)[] | undefined;
  const source = readProp(item, 'source');
  if (isObjectLike(source)) {
    path = pathFrom(readProp(source, 'pointer'), 'pointer') ?? pathFrom(readProp(source, 'parameter'), 'auto');
  }
  for (const k of FIELD_KEYS) {
    if (path !== undefined) break;
    path = pathFrom(readProp(item, k), k === 'loc' ? 'loc' : k === 'pointer' ? 'pointer' : 'auto');
  }
  if (path === undefined) return undefined;
  let message: string | undefined;
  for (const k of MESSAGE_KEYS) {
    message = messageLike(readProp(item, k));
    if (message !== undefined) break;
  }
  const valueKey = VALUE_KEYS.find((k) => ownKeys(item).includes(k));
  return toIssue(path, message, valueKey === undefined ? undefined : readProp(item, valueKey), valueKey !== undefined);
}

function issuesFromList(list: readonly unknown[] | undefined): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const item of (list ?? []).slice(0, 4 * MAX_BODY_FIELD_ISSUES)) {
    const issue = issueFromItem(item);
    if (issue) out.push(issue);
    if (out.length >= MAX_BODY_FIELD_ISSUES) break;
  }
  return out;
}

/** Field-level errors of a (parsed) body as field issues; `[]` when it carries none. */
export function fieldIssuesFromBody(body: unknown): FieldIssue[] {
  const errors = readProp(body, 'errors');
  const fromErrors = issuesFromList(asArray(errors));
  if (fromErrors.length > 0) return fromErrors;
  const fromDetail = issuesFromList(asArray(readProp(body, 'detail')));
  if (fromDetail.length > 0) return fromDetail;
  const fromIssues = issuesFromList(asArray(readProp(body, 'issues')));
  if (fromIssues.length > 0) return fromIssues;
  const details = asArray(readProp(readProp(body, 'error'), 'details')) ?? [];
  for (const d of details.slice(0, 16)) {
    const violations = asArray(readProp(d, 'fieldViolations')) ?? asArray(readProp(d, 'field_violations'));
    const fromGoogle = issuesFromList(violations);
    if (fromGoogle.length > 0) return fromGoogle;
  }
  // OpenAI, Stripe: one offending parameter at the top level or in `error`: { param: "messages[0].content" }
  const param = readProp(body, 'param') ?? readProp(readProp(body, 'error'), 'param');
  const paramPath = typeof param === 'string' && param !== '' ? pathFrom(param, 'auto') : undefined;
  if (paramPath && paramPath.length > 0) {
    const message = messageLike(readProp(body, 'message')) ?? messageLike(readProp(readProp(body, 'error'), 'message'));
    return [toIssue(paramPath, message, undefined, false)];
  }
  // Rails-style map: { errors: { amount: ["must be positive"] } }
  if (isObjectLike(errors) && !asArray(errors)) {
    const out: FieldIssue[] = [];
    for (const key of ownKeys(errors).slice(0, MAX_BODY_FIELD_ISSUES)) {
      const v = readProp(errors, key);
      const msgs = (asArray(v) ?? [v]).filter((m): m is string => typeof m === 'string');
      if (msgs.length > 0) out.push(toIssue(pathFrom(key, 'auto') ?? [key], msgs.join('; '), undefined, false));
    }
    return out;
  }
  return [];
}

/** The code, message and field issues of a response body (parsed first when it is JSON text). Never throws. */
export function readBodyFacts(rawBody: unknown): BodyFacts {
  try {
    const body = parseBody(rawBody);
    const facts: BodyFacts = { fieldIssues: fieldIssuesFromBody(body), words: wordsOf(body) };
    const retryAfterMs = retryAfterOf(body) ?? retryAfterOf(readProp(body, 'parameters'));
    if (retryAfterMs !== undefined) facts.retryAfterMs = retryAfterMs;
    const code = readCode(body);
    if (code !== undefined) facts.code = code.toLowerCase();
    const message = readMessage(body);
    if (message !== undefined) facts.message = message;
    else if (typeof body === 'string' && body.trim() !== '' && !/^\s*</.test(body)) facts.message = body;
    return facts;
  } catch {
    return { fieldIssues: [], words: [] };
  }
}

const WORD_FIELDS = ['code', 'error', 'category', 'errorType', 'error_type', 'type', 'reason', 'title'];

/** The body's structured words (see `BodyFacts.words`). Never throws. */
function wordsOf(body: unknown): string[] {
  const out: string[] = [];
  const take = (v: unknown) => {
    if (typeof v === 'string' && v.length <= 200 && out.length < 8 && !/^https?:/i.test(v)) out.push(v);
  };
  for (const key of WORD_FIELDS) take(readProp(body, key));
  const error = readProp(body, 'error');
  for (const key of ['code', 'type', 'status', 'reason']) take(readProp(error, key));
  const lists = [readProp(body, 'errors'), readProp(error, 'errors'), readProp(error, 'details')];
  for (const e of lists.flatMap((l) => (asArray(l) ?? []).slice(0, 4)))
    for (const v of [readProp(e, 'code'), readProp(e, 'reason'), readProp(readProp(e, 'extensions'), 'code')]) take(v);
  return out;
}

/** A body's `retry_after`/`retryAfter` (seconds) or `retry_after_ms`/`retryAfterMs`, in ms; at most 24 h. */
function retryAfterOf(node: unknown): number | undefined {
  const seconds = readProp(node, 'retry_after') ?? readProp(node, 'retryAfter');
  const ms = readProp(node, 'retry_after_ms') ?? readProp(node, 'retryAfterMs');
  const value = typeof ms === 'number' ? ms : typeof seconds === 'number' ? seconds * 1000 : undefined;
  return value !== undefined && Number.isFinite(value) && value >= 0 && value <= 86_400_000
    ? Math.ceil(value)
    : undefined;
}

/**
 * The server's own words, `code: message`, for a failure's `serverSaid` (the message redacted on its own first, so a
 * rule anchored at its start still matches); `undefined` when the body carries neither.
 */
export function serverWords(facts: BodyFacts): string | undefined {
  const msg = facts.message;
  const code = facts.code;
  return code && msg && !msg.toLowerCase().includes(code) ? `${code}: ${quoted(msg) ?? ''}` : (msg ?? code);
}
