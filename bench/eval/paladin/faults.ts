/**
 * The fault makers of the PALADIN keys injected as `thrown` or `io` (bench/eval/paladin/keys.ts): each builds, or
 * provokes for real, the error a Node tool meets. `thrown` makers build the shape (the library's own class where
 * one exists); `io` makers run the failing operation itself — a refused connection, a missing module, a null
 * dereference, a socket closed mid-body, a huge allocation, unbounded recursion, `JSON.parse` of XML.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PermissionDeniedError } from 'openai';

/** Node's system error shape: `code`, negative `errno`, `syscall`. */
function systemError(code: string, errno: number, syscall: string, message: string, path?: string): Error {
  return Object.assign(new Error(message), { code, errno, syscall, ...(path ? { path } : {}) });
}

/** Node 20's `fetch` failure: `TypeError('fetch failed')` with the system error as `cause`. */
function fetchFailed(cause: Error): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** Keys injected as `thrown`: key → the value the tool throws. */
export const THROWN: Readonly<Record<string, () => unknown>> = Object.freeze({
  'DNS Resolution Error': () =>
    fetchFailed(
      Object.assign(systemError('ENOTFOUND', -3008, 'getaddrinfo', 'getaddrinfo ENOTFOUND records.internal'), {
        hostname: 'records.internal',
      }),
    ),
  ImportError: () => new TypeError('(0 , csv_parse_1.parse) is not a function'),
  ToolExecutionError: () =>
    Object.assign(new Error('Error executing tool get_record: renderer crashed'), {
      name: 'AI_ToolExecutionError',
      toolName: 'get_record',
      toolCallId: 'call_1',
      toolArgs: {},
      cause: new Error('renderer crashed'),
    }),
  PermissionDeniedError: () =>
    new PermissionDeniedError(
      403,
      {
        message: 'Country, region, or territory not supported',
        type: 'request_forbidden',
        code: 'unsupported_country_region_territory',
      },
      undefined,
      new Headers({ 'content-type': 'application/json' }),
    ),
  CertificateError: () =>
    fetchFailed(Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' })),
  IOError: () => systemError('EIO', -5, 'read', 'EIO: i/o error, read'),
  UncaughtException: () => 'renderer exploded',
  WritePermissionError: () =>
    systemError(
      'EACCES',
      -13,
      'open',
      "EACCES: permission denied, open '/srv/reports/summary.md'",
      '/srv/reports/summary.md',
    ),
  ResourceLimitExceeded: () =>
    Object.assign(new Error('Rate exceeded'), {
      name: 'LimitExceededException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400, requestId: 'req-1', attempts: 1, totalRetryDelay: 0 },
    }),
  RuntimeError: () => new Error('unexpected state: cursor closed'),
  BrokenPipeError: () => systemError('EPIPE', -32, 'write', 'write EPIPE'),
});

/** What an `io` fault may touch. */
export interface IoEnv {
  /** A loopback URL nobody listens on. */
  closedUrl: string;
  /** The world service (its `/broken/` path closes the socket mid-body). */
  worldUrl: string;
  /** An empty folder (the record's export file is not there). */
  filesDir: string;
}

const requireHere = createRequire(__filename);

/** Keys injected as `io`: key → the failing operation (it always rejects). */
export const IO: Readonly<Record<string, (env: IoEnv) => Promise<never>>> = Object.freeze({
  ConnectionError: async (env) => {
    await fetch(env.closedUrl);
    throw new Error('unreachable: the closed port answered');
  },
  ModuleNotFoundError: async () => {
    requireHere('pdf-parse');
    throw new Error('unreachable: pdf-parse is installed');
  },
  NullPointerException: async () => {
    const record = JSON.parse('null') as { title: string } | null;
    return record!.title as never;
  },
  ReadError: async (env) => {
    const res = await fetch(`${env.worldUrl}/broken/records/R-0`);
    await res.text();
    throw new Error('unreachable: the body arrived whole');
  },
  OutOfMemoryError: async () => {
    new ArrayBuffer(2 ** 40);
    throw new Error('unreachable: a 1 TiB buffer was allocated');
  },
  StackOverflowError: async () => {
    const depth = (n: number): number => depth(n + 1) + 1;
    return depth(0) as never;
  },
  ParseError: async () => JSON.parse('<record><title>Q3</title></record>') as never,
  FileNotFoundError: async (env) => JSON.parse(await readFile(join(env.filesDir, 'R-0.json'), 'utf8')) as never,
});
