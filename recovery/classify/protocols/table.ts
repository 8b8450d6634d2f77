/**
 * A code table — a protocol's result, reply or reason codes, or a client library's own — and the one reader that
 * reads any of them from an error (docs/DESIGN.md, "Protocols, not libraries"). A table is data: where its code is,
 * what the code looks like, which facts say an error speaks it, and one row per code citing its spec.
 *
 * Which table an error speaks is decided from facts, never from a number alone (FTP 553 is not SMTP 553, SFTP 3 is
 * not LDAP 3): the tool named it (`defineTool({ errors })`), the error's class name names it (`FTPError`), the error
 * has the fields only that protocol's errors have, the code stands in the text in the protocol's own form (IMAP's
 * `NO [NOPERM]`), or the error's own words repeat the row's name for that code (LDAP 50 and
 * `InsufficientAccessRightsError`, MQTT 135 and "Not authorized"). A code is read only in the table that claims it.
 *
 * Words refine a row, never override it: a row marked `refine` (a code the spec leaves broad, FTP 550 "file
 * unavailable (not found, no access)") takes the refusal the error's words name ("Permission denied"), and a
 * permission refused while the session is set up (the words name the handshake, the login, a refused connection)
 * is the credential's (MQTT 5 §3.2.2.2 CONNACK, AMQP 0-9-1 §2.2.4 connection.open, RFC 4252 §5.1).
 * Pure: no I/O; every read goes through the never-throwing readers of ../safe.ts.
 */
import { ErrorKind, KIND_RULES, own, type CodeFacts, type CodeRow } from '../kinds';
import { isObjectLike, readProp, readString } from '../safe';
import { kindOfWords, tokens } from '../words';

/** One row: a code's kind, its spec's name for it, and what the model is told when the kind's words are too broad. */
export interface TableRow extends CodeRow {
  /** The row's own words for the model, in place of its kind's (`the mail server has no such mailbox`). */
  readonly what?: string;
  /** The code's meaning is broad: the error's words may name the refusal it is (see the module docs). */
  readonly refine?: true;
  /** A phrase other libraries use too: read only when the tool names this table. */
  readonly declaredOnly?: true;
}

/** A code table (see the module docs). */
export interface CodeTable<Id extends string = string> {
  /** What `defineTool({ errors })` names; `aliases` name it too. */
  readonly id: Id;
  readonly aliases?: readonly string[];
  /** How the model reads it: `FTP` in `FTP 553 file name not allowed`. */
  readonly label: string;
  /** The spec (or the library's documentation) the rows come from. */
  readonly source: string;
  readonly rows: Readonly<Record<string, TableRow>>;
  /** Fields that hold the code (a dotted path for a nested one); a number is read as its decimal. @default ['code'] */
  readonly fields?: readonly string[];
  /** What a code of this table looks like. */
  readonly pattern: RegExp;
  /** The code in the error's own words (group 1; group 2, when there, must be the row's name): `550 …`, `[NOPERM]`. */
  readonly inText?: RegExp;
  /** The facts that say an error speaks this table when the tool did not name it; any one suffices. */
  readonly speaks: {
    /** A match on the error's class name as lower-case words (`FTPError` → `ftp error`). */
    readonly named?: RegExp;
    /** Fields only its errors carry: any list whose fields are all there. */
    readonly shape?: readonly (readonly string[])[];
    /** The error's words repeat the row's name. */
    readonly agree?: true;
    /** The code found where the table looks, in its form, is enough (`SQLITE_…`, GraphQL's `extensions.code`). */
    readonly form?: true;
    /** A code found in the text by `inText` is enough (the text's form is the protocol's). */
    readonly text?: true;
    /** Any other fact of the error's shape (a value, not a field). */
    readonly test?: (node: unknown, code: string) => boolean;
  };
  /** Keys to look a code up by, most specific first (its family after it). @default [code] */
  readonly keys?: (code: string, node: unknown) => readonly (string | undefined)[];
  /** The row of a code the table does not list, when a fact other than a row's name says the error speaks it. */
  readonly otherwise?: TableRow;
  /** Show the code in the label (not for a table keyed by a library's fixed messages). @default true */
  readonly showCode?: false;
  /** More facts of the error (gRPC's metadata, a constraint's name), given the label so far. */
  readonly more?: (node: unknown, row: TableRow, code: string, label: string) => Partial<CodeFacts>;
}

/** A frozen row: kind, the spec's name, and what else it says. */
export const r = (kind: ErrorKind, name?: string, more: Omit<TableRow, 'kind' | 'name'> = {}): TableRow =>
  Object.freeze({ kind, ...(name === undefined ? {} : { name }), ...more });
/** A table whose id keeps its literal type (for the `errors` names). */
export const table = <Id extends string>(t: CodeTable<Id>): CodeTable<Id> => Object.freeze(t);
/** A row's send fact for an error that can only happen before anything was sent. */
export const NOT_SENT = { sent: 'not_sent' } as const;

/** The fields whose text is an error's own words. */
export const TEXT_FIELDS: readonly string[] = Object.freeze(['message', 'description', 'detail', 'response']);

/** `node` at a dotted path (`errors.0.extensions.code`), read through never-throwing readers. */
function at(node: unknown, path: string): unknown {
  let v = node;
  for (const key of path.split('.')) v = isObjectLike(v) ? readProp(v, key) : undefined;
  return v;
}

/** The error's own words: its class name and its texts, at most 2,000 characters. */
export function wordsOfNode(node: unknown): string {
  const parts = [readString(node, 'name') ?? '', ...TEXT_FIELDS.map((f) => readString(node, f) ?? '')];
  return parts.join(' ').slice(0, 2_000);
}

const STOP = new Set(['error', 'exception', 'the', 'a', 'an', 'of', 'on', 'is', 'to', 'ssh', 'fx']);
const stem = (w: string) => w.slice(0, 5);
const squash = (t: string) => t.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * True when `said` repeats `name`: at least two of its words (one, for a name of one word), compared by their first
 * five letters (`violates` is `violation`), or the whole name run together (`ObjectclassViolation`).
 */
export function agrees(name: string, said: string): boolean {
  const want = [
    ...new Set(
      tokens(name)
        .filter((w) => !STOP.has(w))
        .map(stem),
    ),
  ];
  if (want.length === 0) return false;
  const have = new Set(tokens(said).map(stem));
  const shared = want.filter((w) => have.has(w)).length;
  return shared >= Math.min(2, want.length) || squash(said).includes(squash(name));
}

/** `text` in lower-case snake case, as a business code: `insufficientAccessRights` → `insufficient_access_rights`. */
export function snake(text: string): string {
  return tokens(text).join('_').slice(0, 64);
}

/** The codes a node offers the table: from its fields, then from its texts; `fromText` marks the latter. */
function codesOf(t: CodeTable, node: unknown): { code: string; fromText: boolean; name?: string }[] {
  const out: { code: string; fromText: boolean; name?: string }[] = [];
  for (const f of t.fields ?? ['code']) {
    const v = at(node, f);
    const code = typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' ? v : undefined;
    if (code !== undefined && t.pattern.test(code)) out.push({ code, fromText: false });
  }
  if (t.inText)
    for (const f of TEXT_FIELDS) {
      const m = t.inText.exec((readString(node, f) ?? '').trim());
      if (m?.[1] !== undefined && t.pattern.test(m[1]))
        out.push({ code: m[1], fromText: true, ...(m[2] === undefined ? {} : { name: m[2] }) });
    }
  return out;
}

/** True when a fact other than a row's name says `node` speaks `t`. */
function speaksBy(t: CodeTable, node: unknown, code: string, fromText: boolean): boolean {
  const s = t.speaks;
  const name = tokens(readString(node, 'name') ?? '').join(' ');
  return (
    (s.named?.test(name) ?? false) ||
    (s.shape?.some((fields) => fields.every((f) => readProp(node, f) !== undefined)) ?? false) ||
    (s.form === true && !fromText) ||
    (s.text === true && fromText) ||
    (s.test?.(node, code) ?? false)
  );
}

/** Words of the session's set-up (see the module docs). */
const SETUP = /\b(?:handshake|login|log in|connack|connection refused|authentication mechanism)\b/i;

/** The row's kind, refined by the error's words (see the module docs). */
function refined(row: TableRow, said: string): ErrorKind {
  let kind = row.kind;
  if (row.refine) {
    const byWords = kindOfWords(said);
    const rule = byWords === undefined ? undefined : KIND_RULES[byWords];
    if (byWords && rule && rule.phase === 'refused' && rule.class !== 'transient') kind = byWords;
  }
  return kind === ErrorKind.FORBIDDEN && SETUP.test(said) ? ErrorKind.AUTH_FAILED : kind;
}

/**
 * The facts of `node` in table `t`, or `undefined` when `node` does not speak it (see the module docs).
 * @param declared the tool named this table: a code found where it looks is read without further facts.
 */
export function readTable(t: CodeTable, node: unknown, declared: boolean): CodeFacts | undefined {
  const said = wordsOfNode(node);
  for (const { code, fromText, name } of codesOf(t, node)) {
    const keys = t.keys?.(code, node) ?? [code];
    const key = keys.find((k) => own(t.rows, k) !== undefined);
    const found = key === undefined ? undefined : own(t.rows, key);
    if (found?.declaredOnly && !declared) continue;
    if (name !== undefined && (found?.name === undefined || squash(found.name) !== squash(name))) continue;
    const by = declared || speaksBy(t, node, code, fromText);
    const row =
      found && (by || (t.speaks.agree && found.name !== undefined && agrees(found.name, said)))
        ? found
        : by
          ? t.otherwise
          : undefined;
    if (!row) continue;
    const kind = refined(row, said);
    const shown = [t.label, t.showCode === false ? '' : code, row.name && row.name !== code ? row.name : '']
      .filter((p) => p !== '')
      .join(' ');
    const business = kind === ErrorKind.TOOL_BUG || t.showCode === false ? undefined : snake(row.name ?? code);
    return {
      dialect: t.id,
      kind,
      label: shown,
      ...(row.sent ? { sent: row.sent } : {}),
      ...(business ? { code: business } : {}),
      ...(row.what ? { what: row.what } : {}),
      ...t.more?.(node, row, code, shown),
    };
  }
  return undefined;
}
