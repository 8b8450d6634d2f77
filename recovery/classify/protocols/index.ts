/**
 * The readers of an error's codes, in the order they are tried on each error of a cause chain: the protocols' tables
 * (./tables.ts), the client libraries whose answer is HTTP with a code of their own (AWS, Stripe), then the
 * libraries' own codes and fixed messages (../dialects/libraries.ts). The table a tool names
 * (`defineTool({ errors })`) is tried first on every error and read loosely. The core imports no client library:
 * every reader looks at plain properties through the never-throwing readers of ../safe.ts.
 * Pure: no I/O.
 */
import type { CodeFacts } from '../kinds';
import { awsReader } from '../dialects/aws';
import { LIBRARY_TABLES } from '../dialects/libraries';
import { stripeReader } from '../dialects/stripe';
import { readTable, type CodeTable } from './table';
import { PROTOCOL_TABLES } from './tables';

/** A reader of one table or library: the facts of one error of the cause chain, or `undefined` when not its. */
export interface DialectReader {
  readonly dialect: string;
  readonly aliases?: readonly string[];
  /** @param declared the tool named this reader's table: shapes too loose to claim on their own are read too. */
  read(node: unknown, declared: boolean): CodeFacts | undefined;
}

/** What `defineTool({ errors })` may name: a protocol's or a library's table. */
export type Dialect =
  | (typeof PROTOCOL_TABLES)[number]['id']
  | (typeof LIBRARY_TABLES)[number]['id']
  | 'aws'
  | 'stripe'
  | 'anthropic';

const tableReader = (t: CodeTable): DialectReader => ({
  dialect: t.id,
  ...(t.aliases ? { aliases: t.aliases } : {}),
  read: (node, declared) => readTable(t, node, declared),
});

let readers: readonly DialectReader[] | undefined;

/** Every reader, in order (built on first use). */
export function dialectReaders(): readonly DialectReader[] {
  readers ??= Object.freeze([
    ...PROTOCOL_TABLES.map(tableReader),
    awsReader,
    stripeReader,
    ...LIBRARY_TABLES.map(tableReader),
  ]);
  return readers;
}

/** Every name `errors` accepts, in order. */
export function dialects(): readonly Dialect[] {
  return [...new Set(dialectReaders().flatMap((r) => [r.dialect, ...(r.aliases ?? [])]))] as Dialect[];
}

function tryRead(reader: DialectReader, node: unknown, declared: boolean): CodeFacts | undefined {
  try {
    return reader.read(node, declared);
  } catch {
    return undefined; // a reader must never turn a tool's error into a crash
  }
}

/**
 * The facts of `node` in the first table that claims it; `undefined` when none does.
 * @param declared the table the tool named, tried first and read loosely.
 */
export function readCodes(node: unknown, declared?: string): CodeFacts | undefined {
  const all = dialectReaders();
  if (declared !== undefined)
    for (const reader of all.filter((r) => r.dialect === declared || r.aliases?.includes(declared))) {
      const facts = tryRead(reader, node, true);
      if (facts) return facts;
    }
  for (const reader of all) {
    const facts = tryRead(reader, node, false);
    if (facts) return facts;
  }
  return undefined;
}
