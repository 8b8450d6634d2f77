/**
 * Node's file-system and system errors: `code` (`ENOENT`), `errno` (negative), `syscall` (`open`), `path`. The
 * path and the message name a place on the worker's disk: never read. Network codes are the network rules'.
 * Pure: no I/O.
 */
import { readNumber, readString } from '../safe';
import { Dialect, ErrorKind as K, own, rowsFrom, type DialectReader, type DialectRow } from './kinds';

const nd = rowsFrom('Node.js docs, "Errors: Common system errors" and errno(3) (POSIX error names)');

/** System error codes → row. */
// prettier-ignore
export const NODE_CODES: Readonly<Record<string, DialectRow>> = Object.freeze({
  ENOENT: nd(K.NOT_FOUND), // a changed path is the fix: the model chooses another
  ENOTDIR: nd(K.PRECONDITION_FAILED), // a component of the path is not a directory
  EISDIR: nd(K.PRECONDITION_FAILED), // a file operation on a directory
  ENOTEMPTY: nd(K.PRECONDITION_FAILED),
  EEXIST: nd(K.CONFLICT),
  ELOOP: nd(K.PRECONDITION_FAILED),
  ENAMETOOLONG: nd(K.INVALID_ARGUMENT),
  EACCES: nd(K.FORBIDDEN),
  EPERM: nd(K.FORBIDDEN),
  EROFS: nd(K.FORBIDDEN), // a read-only file system
  EMFILE: nd(K.UNAVAILABLE), // this process has too many open files; the call did not start
  ENFILE: nd(K.UNAVAILABLE),
  EBUSY: nd(K.UNAVAILABLE),
  EAGAIN: nd(K.UNAVAILABLE),
  ENOSPC: nd(K.RESOURCE_FAILURE), // the disk is full: an operator must free space
  EDQUOT: nd(K.RESOURCE_FAILURE),
  EIO: nd(K.RESOURCE_FAILURE), // a device I/O error
  EFBIG: nd(K.INVALID_ARGUMENT),
  EXDEV: nd(K.UNSUPPORTED), // a rename across devices
  ENOTSUP: nd(K.UNSUPPORTED),
  EINVAL: nd(K.TOOL_BUG),
  EBADF: nd(K.TOOL_BUG),
});

export const nodeReader: DialectReader = {
  dialect: Dialect.NODE,
  read(node, declared) {
    const code = readString(node, 'code');
    const row = own(NODE_CODES, code);
    if (!row) return undefined;
    const system = readString(node, 'syscall') !== undefined || (readNumber(node, 'errno') ?? 0) < 0;
    if (!system && !declared) return undefined;
    const syscall = readString(node, 'syscall');
    const shown = syscall && /^[a-z_]{1,24}$/.test(syscall) ? ` (${syscall})` : '';
    return {
      dialect: Dialect.NODE,
      kind: row.kind,
      label: `${code}${shown}`,
      ...(row.kind === K.TOOL_BUG ? {} : { code: code!.toLowerCase() }),
    };
  },
};
