/**
 * axios errors without an answer (`isAxiosError: true`, no `response`): axios's own `code`s. An answer
 * (`response.status`, `headers`, `data`) is read by the wrapped-HTTP reader, and system codes copied from the
 * cause (`ECONNREFUSED`) by the network rules.
 * Pure: no I/O.
 */
import { isObjectLike, readProp, readString } from '../safe';
import { Dialect, ErrorKind as K, own, rowsFrom, type DialectReader, type DialectRow } from './kinds';

const ax = rowsFrom('axios README, "Error Types" (AxiosError codes); axios lib/core/AxiosError.js');

/** axios error codes → row. */
// prettier-ignore
export const AXIOS_CODES: Readonly<Record<string, DialectRow>> = Object.freeze({
  ECONNABORTED: ax(K.CLIENT_TIMEOUT), // `timeout` elapsed (or aborted) after the request was sent
  ETIMEDOUT: ax(K.CLIENT_TIMEOUT), // the same with transitional.clarifyTimeoutError
  ERR_CANCELED: ax(K.CLIENT_TIMEOUT), // an AbortSignal or CancelToken: the moment is unknown
  ERR_NETWORK: ax(K.CONNECTION_LOST),
  ERR_FR_TOO_MANY_REDIRECTS: ax(K.UNSUPPORTED), // a redirect loop on the server's side
  ERR_BAD_RESPONSE: ax(K.INVALID_RESULT), // e.g. maxContentLength exceeded, an unparseable answer
  ERR_BAD_OPTION: ax(K.TOOL_BUG),
  ERR_BAD_OPTION_VALUE: ax(K.TOOL_BUG),
  ERR_INVALID_URL: ax(K.TOOL_BUG),
  ERR_NOT_SUPPORT: ax(K.TOOL_BUG),
  ERR_DEPRECATED: ax(K.TOOL_BUG),
});

export const axiosReader: DialectReader = {
  dialect: Dialect.AXIOS,
  read(node, declared) {
    if (readProp(node, 'isAxiosError') !== true && !declared) return undefined;
    if (isObjectLike(readProp(node, 'response'))) return undefined;
    const code = readString(node, 'code');
    const row = own(AXIOS_CODES, code);
    if (!row) return undefined;
    return { dialect: Dialect.AXIOS, kind: row.kind, label: `axios ${code}` };
  },
};
