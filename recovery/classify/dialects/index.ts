/**
 * The dialects: what client libraries throw, read by shape, one small table per family. The core imports no
 * client library: every reader looks at plain properties (`code`, `name`, `$metadata`, `errorLabels`, …) through
 * the never-throwing readers of ../safe.ts.
 *
 * Dispatch (`readDialect`): each error of the cause chain, outermost first; on each, the dialect the tool named
 * (`defineTool({ errors })`, read loosely) and then every reader in `DIALECT_READERS` order (strict shapes). The
 * first reader that recognises a node wins. `classifyDialect` turns its facts into a `ToolFailure`: by the kind
 * table (kinds.ts), or by the HTTP rules when the family reports only a status.
 * Pure: no I/O.
 */
import type { ToolFailure } from '../../failure';
import { buildFailure } from '../build';
import type { CallContext } from '../context';
import { classifyHttp } from '../http';
import { errorChain } from '../network';
import { retryAfterMsFromHeaders } from '../retry-after';
import { awsReader } from './aws';
import { axiosReader } from './axios';
import { googleReader } from './google';
import { grpcReader } from './grpc';
import { type Dialect, kindDraft, type DialectFacts, type DialectReader } from './kinds';
import { llmSdkReader } from './llm-sdk';
import { mongodbReader } from './mongodb';
import { mysqlReader } from './mysql';
import { nodeReader } from './node';
import { parseReader } from './parse';
import { postgresReader } from './postgres';
import { prismaReader } from './prisma';
import { redisReader } from './redis';
import { sqliteReader } from './sqlite';
import { stripeReader } from './stripe';

export {
  Dialect,
  DIALECTS,
  ErrorKind,
  KIND_RULES,
  type DialectFacts,
  type DialectReader,
  type DialectRow,
} from './kinds';

/**
 * The readers, in the order they are tried on each error. Order matters where shapes overlap: AWS before the
 * JSON `SyntaxError` (the SDK's parse failure carries `$metadata`), Stripe and Google before the generic SDK and
 * axios shapes, Node system codes last.
 */
export const DIALECT_READERS: readonly DialectReader[] = Object.freeze([
  postgresReader,
  mysqlReader,
  sqliteReader,
  prismaReader,
  mongodbReader,
  redisReader,
  grpcReader,
  awsReader,
  stripeReader,
  googleReader,
  llmSdkReader,
  axiosReader,
  nodeReader,
  parseReader,
]);

/** The readers a declared dialect puts first. */
const DECLARED: Readonly<Record<Dialect, readonly DialectReader[]>> = Object.freeze({
  postgres: [postgresReader],
  mysql: [mysqlReader],
  sqlite: [sqliteReader],
  prisma: [prismaReader],
  mongodb: [mongodbReader],
  redis: [redisReader],
  grpc: [grpcReader],
  aws: [awsReader],
  stripe: [stripeReader],
  google: [googleReader],
  openai: [llmSdkReader],
  anthropic: [llmSdkReader],
  axios: [axiosReader],
  node: [nodeReader, parseReader],
});

function tryRead(reader: DialectReader, node: unknown, declared: boolean): DialectFacts | undefined {
  try {
    return reader.read(node, declared);
  } catch {
    return undefined; // a reader must never turn a tool's error into a crash
  }
}

/**
 * The facts of the first error in `error`'s cause chain that a dialect recognises; `undefined` when none does.
 * @param declared the dialect the tool named, tried first on every node and read loosely.
 */
export function readDialect(error: unknown, declared?: Dialect): DialectFacts | undefined {
  for (const node of errorChain(error)) {
    for (const reader of declared === undefined ? [] : (DECLARED[declared] ?? [])) {
      const facts = tryRead(reader, node, true);
      if (facts) return facts;
    }
    for (const reader of DIALECT_READERS) {
      const facts = tryRead(reader, node, false);
      if (facts) return facts;
    }
  }
  return undefined;
}

/**
 * Classifies what a tool threw when a dialect recognises it; `undefined` otherwise (the caller goes on to the
 * wrapped-HTTP and network rules).
 * @param requestSent the adapter's knowledge; wins over the library's.
 * @param ctx the call (validated by the caller); `ctx.dialect` is the tool's declared dialect.
 */
export function classifyDialect(
  error: unknown,
  requestSent: boolean | undefined,
  ctx: CallContext,
): ToolFailure | undefined {
  const facts = readDialect(error, ctx.dialect);
  if (!facts) return undefined;
  if (facts.kind === undefined) {
    return facts.http ? classifyHttp(facts.http.status, facts.http.headers, facts.http.body, ctx) : undefined;
  }
  const retryAfterMs =
    facts.retryAfterMs ?? (facts.http ? retryAfterMsFromHeaders(facts.http.headers, ctx.nowMs) : undefined);
  return buildFailure(
    ctx,
    kindDraft(facts.kind, retryAfterMs === undefined ? facts : { ...facts, retryAfterMs }, requestSent, ctx),
  );
}
