/**
 * A `SyntaxError` from parsing a result: `JSON.parse`, `res.json()` (undici and node-fetch raise the parser's
 * `SyntaxError`). The call returned; its answer is not a usable fact (the same as a non-JSON body read through
 * `ctx.http`). A `SyntaxError` that is not about JSON (a bad regular expression the tool built) stays a tool bug.
 * Pure: no I/O.
 */
import { readString } from '../safe';
import { Dialect, ErrorKind as K, rowsFrom, type DialectReader } from './kinds';

const v8 = rowsFrom(
  'ECMAScript JSON.parse (ECMA-262 §25.5.1) and V8\'s messages ("… is not valid JSON", "Unexpected end of JSON input")',
);
export const PARSE_ROW = v8(K.INVALID_RESULT, 'SyntaxError');

const JSON_MESSAGE =
  /\bJSON\b|^Unexpected (?:token|end of input|non-whitespace)|^Bad control character|^Expected (?:property name|',' or|double-quoted)/;

export const parseReader: DialectReader = {
  dialect: Dialect.NODE,
  read(node) {
    if (readString(node, 'name') !== 'SyntaxError') return undefined;
    if (!JSON_MESSAGE.test(readString(node, 'message') ?? '')) return undefined;
    return { dialect: Dialect.NODE, kind: PARSE_ROW.kind, label: 'the result is not valid JSON (SyntaxError)' };
  },
};
