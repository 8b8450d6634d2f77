/**
 * The openai and @anthropic-ai/sdk error classes, read by shape (both SDKs are generated from one template):
 * every `APIError` has own properties `status`, `headers` and `error`. An answer (`status` set) is an HTTP
 * answer the wrapped-HTTP reader already reads (its `param` becomes a field issue). What is read here are the
 * errors without an answer: `APIConnectionTimeoutError` ("Request timed out.", no code, no cause),
 * `APIConnectionError` ("Connection error.", the transport error in `cause` when there is one),
 * `APIUserAbortError` ("Request was aborted."), and openai's parse helpers' `LengthFinishReasonError` /
 * `ContentFilterFinishReasonError`.
 * Pure: no I/O.
 */
import { transportFacts } from '../network';
import { hasOwn, readProp, readString } from '../safe';
import { Dialect, ErrorKind as K, own, rowsFrom, type DialectReader, type DialectRow } from './kinds';

const sdk = rowsFrom('openai-node and anthropic-sdk-typescript src/core/error.ts (APIConnectionError and subclasses)');

/** Messages of the SDKs' errors without a status → row. */
// prettier-ignore
export const LLM_SDK_MESSAGES: Readonly<Record<string, DialectRow>> = Object.freeze({
  'Request timed out.': sdk(K.CLIENT_TIMEOUT, 'APIConnectionTimeoutError'),
  'Connection error.': sdk(K.CONNECTION_LOST, 'APIConnectionError'),
  'Request was aborted.': sdk(K.CLIENT_TIMEOUT, 'APIUserAbortError'),
  'Could not parse response content as the length limit was reached': sdk(K.INVALID_RESULT, 'LengthFinishReasonError'),
  'Could not parse response content as the request was rejected by the content filter': sdk(K.INVALID_RESULT, 'ContentFilterFinishReasonError'),
});

function isSdkShape(node: unknown): boolean {
  return hasOwn(node, 'status') && hasOwn(node, 'headers') && hasOwn(node, 'error');
}

export const llmSdkReader: DialectReader = {
  dialect: Dialect.OPENAI,
  read(node, declared) {
    const message = readString(node, 'message');
    const row = message === undefined ? undefined : own(LLM_SDK_MESSAGES, message);
    if (!row) return undefined;
    const finish = row.kind === K.INVALID_RESULT;
    if (!finish && !(isSdkShape(node) && readProp(node, 'status') === undefined) && !declared) return undefined;
    const vendor = hasOwn(node, 'apiMessage') || hasOwn(node, 'workspaceID') ? 'Anthropic' : 'OpenAI';
    // A connection error with a transport error in its cause: the network rules read the cause (refused = not sent).
    if (row.name === 'APIConnectionError' && transportFacts(readProp(node, 'cause')).length > 0) return undefined;
    return {
      dialect: vendor === 'Anthropic' ? Dialect.ANTHROPIC : Dialect.OPENAI,
      kind: row.kind,
      label: `${vendor} SDK ${row.name}`,
    };
  },
};
