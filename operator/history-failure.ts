/**
 * A failure as a history records it, back to something the classifier (recovery/classify) can read. History keeps an
 * activity error's type (`ApplicationFailure.type`, or the thrown error's `name`), its message, whether it was
 * non-retryable and its causes (Temporal docs, "Failure converter"; the default converter keeps no status, header
 * or Node error code). So the status and the Node error code are read back from the messages common clients write:
 * - axios `Request failed with status code 409`, got `Response code 409 (Conflict)`, and `HTTP 409` / `status 409`
 *   in a message of its own → an HTTP answer with that status (no headers: a `Retry-After` is not in history);
 * - Node's `read ECONNRESET`, `connect ECONNREFUSED 127.0.0.1:5432`, `getaddrinfo ENOTFOUND host` → `code` and
 *   `syscall`, as Node's errors carry them; `socket hang up` is read by the classifier's own message rules;
 * - an activity timeout (`timeoutFailureInfo`) → a `TimeoutError`: the attempt ended with no answer.
 * Node-side only.
 */
import type { temporal } from '@temporalio/proto';

type Failure = temporal.api.failure.v1.IFailure;

/** What a recorded failure says, as an error object: name, message, and what the message tells. */
export interface RecordedError {
  name: string;
  message: string;
  nonRetryable?: boolean;
  code?: string;
  syscall?: string;
  response?: { status: number; headers: Record<string, never> };
  cause?: RecordedError;
}

const STATUS_PATTERNS: readonly RegExp[] = [
  /\bstatus code (\d{3})\b/i,
  /\bResponse code (\d{3})\b/,
  /\bHTTP\/?\d?(?:\.\d)? (\d{3})\b/,
  /\bstatus:? (\d{3})\b/i,
];
const NODE_CODE = /\b(?:(read|write|connect|getaddrinfo|send|recv) )?(E[A-Z]{2,}(?:_[A-Z]+)*)\b/;

/** The status a message names, in 400–599. */
function statusIn(message: string): number | undefined {
  for (const pattern of STATUS_PATTERNS) {
    const m = pattern.exec(message);
    const status = m ? Number(m[1]) : Number.NaN;
    if (status >= 400 && status <= 599) return status;
  }
  return undefined;
}

/** A recorded failure (and its causes, at most 8 deep) as an error object. */
export function recordedError(failure: Failure, depth = 0): RecordedError {
  const message = failure.message ?? '';
  const app = failure.applicationFailureInfo;
  const name = failure.timeoutFailureInfo ? 'TimeoutError' : app?.type || 'Error';
  const e: RecordedError = { name, message };
  if (app?.nonRetryable) e.nonRetryable = true;
  const status = statusIn(message);
  if (status !== undefined) e.response = { status, headers: {} };
  const node = NODE_CODE.exec(message);
  if (node?.[2]) {
    e.code = node[2];
    if (node[1]) e.syscall = node[1];
  }
  if (failure.cause && depth < 8) e.cause = recordedError(failure.cause, depth + 1);
  return e;
}
