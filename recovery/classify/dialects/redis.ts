/**
 * Redis errors: an error reply's first word is its kind (`READONLY`, `LOADING`, `BUSY`, `WRONGTYPE`), as ioredis
 * (`ReplyError`) and node-redis (`ErrorReply`, `SimpleError`) pass it in `message`; the client's own errors for a
 * lost or closed connection by their messages. `command.args` carries values: never read.
 * Pure: no I/O.
 */
import { readString } from '../safe';
import { Dialect, ErrorKind as K, own, rowsFrom, type DialectReader, type DialectRow } from './kinds';

const rd = rowsFrom(
  'Redis docs, "Redis serialization protocol specification" (Simple errors) and the commands\' error replies',
);
const ioredis = rowsFrom('ioredis lib/Redis.ts, lib/Command.ts, lib/errors; node-redis packages/client/lib/errors.ts');

/** Error reply prefixes → row. */
// prettier-ignore
export const REDIS_REPLIES: Readonly<Record<string, DialectRow>> = Object.freeze({
  READONLY: rd(K.UNAVAILABLE), // a write sent to a replica (a failover in progress): not applied
  LOADING: rd(K.UNAVAILABLE), // the dataset is being loaded into memory
  BUSY: rd(K.UNAVAILABLE), // a script or function is running; the command was not run
  MASTERDOWN: rd(K.UNAVAILABLE),
  CLUSTERDOWN: rd(K.UNAVAILABLE),
  TRYAGAIN: rd(K.UNAVAILABLE),
  NOREPLICAS: rd(K.UNAVAILABLE),
  OOM: rd(K.RESOURCE_FAILURE), // maxmemory reached: an operator must act
  EXECABORT: rd(K.INVALID_ARGUMENT), // the transaction was discarded because of a bad command
  NOAUTH: rd(K.AUTH_FAILED),
  WRONGPASS: rd(K.AUTH_FAILED),
  NOPERM: rd(K.FORBIDDEN),
  WRONGTYPE: rd(K.TOOL_BUG),
  NOSCRIPT: rd(K.TOOL_BUG),
  ERR: rd(K.TOOL_BUG), // unknown command, wrong number of arguments, syntax error
});

/** Client errors, by exact message. */
// prettier-ignore
export const REDIS_CLIENT_MESSAGES: Readonly<Record<string, DialectRow>> = Object.freeze({
  'Connection is closed.': ioredis(K.CONNECTION_LOST), // ioredis: in flight when it closed, or issued after
  "Stream isn't writeable and enableOfflineQueue options is false": ioredis(K.NOT_SENT, undefined, 'not_sent'),
  'Command timed out': ioredis(K.CLIENT_TIMEOUT), // ioredis commandTimeout
  'Socket closed unexpectedly': ioredis(K.CONNECTION_LOST), // node-redis SocketClosedUnexpectedlyError
  'The client is closed': ioredis(K.NOT_SENT, undefined, 'not_sent'), // node-redis ClientClosedError
  'The client is offline': ioredis(K.NOT_SENT, undefined, 'not_sent'), // node-redis ClientOfflineError
  'Connection timeout': ioredis(K.CONNECT_TIMEOUT, undefined, 'not_sent'), // node-redis ConnectionTimeoutError
});

const REPLY_CLASSES = new Set(['ReplyError', 'ErrorReply', 'SimpleError', 'BlobError']);
const CLIENT_CLASSES = new Set(['MaxRetriesPerRequestError', 'SocketClosedUnexpectedlyError', 'ClientClosedError']);

export const redisReader: DialectReader = {
  dialect: Dialect.REDIS,
  read(node, declared) {
    const name = readString(node, 'name') ?? '';
    const message = readString(node, 'message') ?? '';
    if (name === 'MaxRetriesPerRequestError') {
      // ioredis re-queues commands in flight when the connection drops: one may have been sent.
      return { dialect: Dialect.REDIS, kind: K.CONNECTION_LOST, label: 'Redis client MaxRetriesPerRequestError' };
    }
    if (REPLY_CLASSES.has(name) || declared) {
      const prefix = /^([A-Z]{2,20})(?:\s|$)/.exec(message)?.[1];
      const row = own(REDIS_REPLIES, prefix);
      if (row)
        return {
          dialect: Dialect.REDIS,
          kind: row.kind,
          label: `Redis ${prefix} error reply`,
          ...(row.kind === K.TOOL_BUG ? {} : { code: prefix!.toLowerCase() }),
        };
    }
    const client = own(REDIS_CLIENT_MESSAGES, message);
    if (client && (declared || name === 'Error' || CLIENT_CLASSES.has(name))) {
      return {
        dialect: Dialect.REDIS,
        kind: client.kind,
        label: `Redis client: ${message.replace(/\.$/, '')}`,
        ...(client.sent ? { sent: client.sent } : {}),
      };
    }
    return undefined;
  },
};
