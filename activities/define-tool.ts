/**
 * Declaring a tool: `defineTool({...})`. Node side: a definition holds the `execute` function and zod schemas;
 * workflow code sees only its serializable `ToolSpec` (`toolSpec(def)`).
 */
import { z } from 'zod';
import { dialects, type Dialect, type ToolClassifier } from '../recovery/classify';
import { commitWindows } from './commit-windows';
import {
  idempotencySchema,
  TOOL_NAME_PATTERN,
  toolSpecSchema,
  type Idempotency,
  type ToolSpec,
} from '../recovery/tool-spec';
import type { PostconditionVerdict } from '../recovery/postcondition';
import type { ToolContext } from './tool-context';
import { RecoveryError } from '../recovery/recovery-error';

/** A tool's answer to `lookup(operationId)`: the terminal state of a write (the reconcile route). */
export type LookupResult<O> =
  | { state: 'applied'; result: O }
  | { state: 'not_applied' }
  | { state: 'unknown'; detail?: string };

/** `verify(args)`'s answer: does the state asked for hold now? A verdict, or one with the `state` the read found
 * (shown to the model as observed state, redacted and bounded). */
export type VerifyResult = PostconditionVerdict | { verdict: PostconditionVerdict; state?: unknown };

/** A tool's effect: `read` has no side effect; `write` may change the world. */
export type Effect = ToolSpec['effect'];

/** A broken business rule found by trusted code before dispatch: a field (path) and what is wrong, in words. */
export interface RuleViolation {
  path: (string | number)[];
  message: string;
  suggestion?: string;
}

/**
 * What `defineTool` takes: a tool's name, schemas, effect, idempotency and recovery declarations, and its
 * `execute` (docs/tools.md). @throws ToolDefinitionError from `defineTool`, naming the tool and the field.
 */
export interface ToolDefinition<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  N extends string = string,
  E extends Effect = Effect,
> {
  /** Unique name, 1-64 characters of [a-zA-Z0-9_.-]; its literal type names the tool in a typed router. */
  name: N;
  /** What the tool does, for the planner. */
  description: string;
  /** Arguments schema. Its JSON Schema (zod 4 `z.toJSONSchema`) is what a planner sees. */
  input: I;
  /** Result schema. A result that fails it is `invalid_result` (route: reject), never passed on. */
  output: O;
  /** `read` has no side effect; `write` may change the world. Its literal type types a typed router's outcomes. */
  effect: E;
  /** How the call carries its idempotency key. @default { carrier: 'none' } */
  idempotency?: Idempotency;
  /**
   * Terminal-state query by operation_id for writes whose outcome is unknown (the reconcile route). `args` are the
   * call's arguments as the tool saw them (after its input schema), for lookups that need them.
   */
  lookup?(operationId: string, ctx: ToolContext, args: z.output<I>): Promise<LookupResult<z.output<O>>>;
  /**
   * What the router cannot know about this write's downstream, which decides when a `lookup` that answers
   * `not_applied` may be believed (docs/DESIGN.md, "Reconcile": replay only when the first attempt can no longer
   * commit). Both unset (the default): a "not found" is never final — the router looks again and then asks a person;
   * it never replays a write that may still land. A write whose receiver deduplicates by its key needs neither.
   */
  commit?: {
    /**
     * The longest a request the service has received may take to commit, in ms, counted from the moment the attempt's
     * failure reached the workflow (include the time a tool that ignores `ctx.signal` may keep sending). 0 to
     * `MAX_COMMIT_WINDOW_MS`.
     */
    settleMs?: number;
    /** How long a commit may take to show in `lookup`, in ms: 0 for a lookup that reads its own writes. */
    lookupLagMs?: number;
  };
  /**
   * The call's postcondition: a read against the real system that says whether the state the call asks for holds
   * now (`'holds'`, `'does_not_hold'`, `'unknown'`, or `{ verdict, state }`). Run as an activity (docs/DESIGN.md,
   * "Already done is done") when a write is refused with an answer that may mean "already" (a 409, a 412, a 422
   * whose message says so: recovery/postcondition.ts) and before the lookups of an unknown outcome. `holds` makes
   * the call a success, `reconciled: 'already_satisfied'`, never re-executed. A throw counts as `unknown`.
   */
  verify?(args: z.output<I>, ctx: ToolContext): Promise<VerifyResult>;
  /**
   * More phrasings of "the state already holds" in this service's 422 messages (case-insensitive, on word
   * boundaries), beside the vocabulary's `already` words (recovery/classify/words.ts). Used with `verify`.
   */
  alreadyPhrases?: readonly string[];
  /** Business invariants checked by trusted code: valid JSON is not a valid operation (docs/DESIGN.md, "Routes"). */
  validate?: {
    /** Runs after `input`, before any I/O: violations make the call `invalid_arguments`, nothing is dispatched. */
    before?(args: z.output<I>): RuleViolation[] | undefined | Promise<RuleViolation[] | undefined>;
    /** Runs on a schema-valid result: a returned message makes it `invalid_result` (rejected). */
    after?(result: z.output<O>, args: z.output<I>): string | undefined;
  };
  /** Overrides or extends the built-in classification (precedence: recovery/classify/index.ts). */
  classify?: ToolClassifier;
  /**
   * The protocol or client library whose errors `execute` lets through, where its errors' facts are ambiguous: its
   * table is tried first and read loosely (a bare SQLSTATE `code`, an FTP reply code, node-postgres's codeless
   * "timeout expired" as not sent). One of `dialects()` (recovery/classify/protocols: `postgres`, `ftp`, `ldap`,
   * `mqtt`, `amqp`, `imap`, `sftp`, `smtp`, `graphql`, `grpc`, …). @default detection by the error's facts
   */
  errors?: Dialect;
  /** Activity timeouts, in ms. @default { startToCloseMs: 30_000 } */
  timeouts?: { startToCloseMs?: number; heartbeatMs?: number };
  /** Permission a caller needs; discovery is not authorisation. */
  scope?: string;
  /** A 403 can be lifted by human approval (the workflow waits for the approval signal). @default false */
  approvalCanLift?: boolean;
  /** Credential id the broker supplies (activities/credentials.ts). */
  credential?: string;
  /**
   * `ctx.http` request headers holding secrets (`x-api-key`), beside `Authorization` and `Cookie`: no answer's body
   * hands their values on (docs/tools.md, "ctx.http"). At most 32 header names (RFC 9110 §5.1). @default []
   */
  secretHeaders?: readonly string[];
  /** Circuit-breaker key shared by every tool calling the same downstream. @default the tool's name */
  downstream?: string;
  /** Performs the call. Throw (or let `ctx.http` throw) on failure: the activity classifies what it throws. */
  execute(args: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
}

/** A definition whose defaults are filled in. */
export type DefinedTool<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  N extends string = string,
  E extends Effect = Effect,
> = ToolDefinition<I, O, N, E> & {
  readonly idempotency: Idempotency;
  readonly spec: ToolSpec;
};

/** Any defined tool, whatever its schemas (for collections of tools). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = DefinedTool<any, any>;

/** Most characters of a caller's value (a tool name, a library's message) quoted in a `ToolDefinitionError`. */
export const MAX_ECHOED_CHARS = 64;

/**
 * `value` as an error message may quote it: at most `MAX_ECHOED_CHARS` characters, then `…(N chars)` with the
 * full length, e.g. `xxxx…(1000000 chars)`. A message never grows with its input.
 */
export function boundedEcho(value: string, max: number = MAX_ECHOED_CHARS): string {
  return value.length <= max ? value : `${value.slice(0, max)}…(${value.length} chars)`;
}

/**
 * A `defineTool` argument that cannot be used. `tool` is the tool's name as given, bounded by `boundedEcho`
 * (`(not an object)` / `(unnamed)` when there is none); the message names the field and the rule.
 */
export class ToolDefinitionError extends RecoveryError<'invalid_tool_definition'> {
  override readonly name = 'ToolDefinitionError';
  static override readonly codes: readonly string[] = ['invalid_tool_definition'];
  readonly tool: string;
  constructor(tool: string, message: string) {
    const shown = boundedEcho(tool);
    super('invalid_tool_definition', `defineTool(${JSON.stringify(shown)}): ${message}`);
    this.tool = shown;
  }
}

const DEFAULT_START_TO_CLOSE_MS = 30_000;
/** RFC 9110 §5.1: a field name is a token (§5.6.2). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/**
 * Why a schema is refused: it is not a schema of the `zod` package this library resolves (`instanceof` its
 * `ZodType`). A zod 3 schema, a `zod/mini` schema or a second copy of zod in `node_modules` fails the check.
 */
const NOT_A_ZOD_SCHEMA =
  'must be a zod 4 schema from the `zod` package recovery-router resolves (zod is a peer dependency: `npm ls zod` shows one copy)';

/** Why a string is not a tool name: empty, too long, or the first character outside [a-zA-Z0-9_.-]. */
function nameProblem(name: string): string {
  if (name.length === 0) return 'it is empty';
  if (name.length > 64) return `it is ${name.length} characters long`;
  const bad = /[^a-zA-Z0-9_.-]/u.exec(name);
  const cp = bad?.[0].codePointAt(0) ?? 0;
  return `it has U+${cp.toString(16).toUpperCase().padStart(4, '0')} at index ${bad?.index ?? 0}`;
}

/** What a value is, for a message: `null`, `undefined`, `an array`, or its `typeof`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** The names `errors` accepts, as the error message lists them. */
const dialectList = () =>
  dialects()
    .map((d) => `'${d}'`)
    .join(', ');

/** @throws ToolDefinitionError unless `list` is undefined or at most `max` strings that pass `ok` (`what` says which). */
function checkList(name: string, field: string, list: unknown, max: number, ok: (s: string) => boolean, what: string) {
  if (list === undefined) return;
  if (!Array.isArray(list) || list.length > max || !list.every((x) => typeof x === 'string' && ok(x)))
    throw new ToolDefinitionError(name, `\`${field}\` must be at most ${max} ${what}`);
}

/**
 * Declares a tool.
 * @throws ToolDefinitionError when `def` is not an object (`null`, `undefined`, an array, a string…), or a
 *   field is missing or wrong: `name` not a string of 1-64 characters of [a-zA-Z0-9_.-] (checked first; the
 *   message quotes at most `MAX_ECHOED_CHARS` characters of it), `input`/`output` not zod schemas, no `execute`,
 *   timeouts not positive integers in ms, an idempotency carrier that fails `idempotencySchema()`, `errors` not one
 *   of `dialects()`.
 */
export function defineTool<I extends z.ZodType, O extends z.ZodType, const N extends string, const E extends Effect>(
  def: ToolDefinition<I, O, N, E>,
): DefinedTool<I, O, N, E> {
  if (typeof def !== 'object' || def === null || Array.isArray(def)) {
    throw new ToolDefinitionError(
      '(not an object)',
      `the definition must be an object { name, description, input, output, effect, execute }, got ${kindOf(def)}`,
    );
  }
  if (typeof def.name !== 'string') {
    throw new ToolDefinitionError(
      '(unnamed)',
      `\`name\` must be a string of 1-64 characters of [a-zA-Z0-9_.-], got ${kindOf(def.name)}`,
    );
  }
  const name = def.name;
  // The rule of `toolSpecSchema().name`, checked first so a bad name is the error reported.
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new ToolDefinitionError(name, `\`name\` must be 1-64 characters of [a-zA-Z0-9_.-]: ${nameProblem(name)}`);
  }
  for (const key of ['input', 'output'] as const) {
    if (!(def[key] instanceof z.ZodType)) throw new ToolDefinitionError(name, `\`${key}\` ${NOT_A_ZOD_SCHEMA}`);
  }
  if (typeof def.execute !== 'function') throw new ToolDefinitionError(name, '`execute` must be a function');
  if (def.lookup !== undefined && typeof def.lookup !== 'function') {
    throw new ToolDefinitionError(name, '`lookup` must be a function (operationId, ctx, args) => LookupResult');
  }
  if (def.verify !== undefined && typeof def.verify !== 'function') {
    throw new ToolDefinitionError(name, '`verify` must be a function (args, ctx) => VerifyResult');
  }
  const phrase = (p: string) => p.trim() !== '' && p.length <= 200;
  checkList(name, 'alreadyPhrases', def.alreadyPhrases, 100, phrase, 'non-empty strings of at most 200 characters');
  checkList(name, 'secretHeaders', def.secretHeaders, 32, (h) => HEADER_NAME.test(h), 'header names (RFC 9110 §5.1)');
  if (def.errors !== undefined && !(dialects() as readonly unknown[]).includes(def.errors)) {
    const got = typeof def.errors === 'string' ? JSON.stringify(boundedEcho(def.errors)) : kindOf(def.errors);
    throw new ToolDefinitionError(name, `\`errors\` must be one of ${dialectList()}; got ${got}`);
  }
  const idempotency = idempotencySchema().safeParse(def.idempotency ?? { carrier: 'none' });
  if (!idempotency.success) throw new ToolDefinitionError(name, `idempotency: ${idempotency.error.issues[0]?.message}`);
  let inputSchema: Record<string, unknown>;
  try {
    // Through JSON: the spec is workflow input, plain data. zod 4.3 also hangs a non-enumerable `~standard` on the
    // result, which a record schema would copy into the spec (and so into every planner request).
    inputSchema = JSON.parse(
      JSON.stringify(z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any' })),
    ) as Record<string, unknown>;
  } catch (err) {
    throw new ToolDefinitionError(
      name,
      `input has no JSON Schema form (${boundedEcho(String((err as Error)?.message), 200)})`,
    );
  }
  const spec = toolSpecSchema().safeParse({
    name: def.name,
    description: def.description,
    inputSchema,
    effect: def.effect,
    idempotency: idempotency.data,
    hasLookup: def.lookup !== undefined,
    ...(def.verify !== undefined ? { hasVerify: true } : {}),
    scope: def.scope,
    approvalCanLift: def.approvalCanLift ?? false,
    startToCloseTimeoutMs: def.timeouts?.startToCloseMs ?? DEFAULT_START_TO_CLOSE_MS,
    heartbeatTimeoutMs: def.timeouts?.heartbeatMs,
    ...commitWindows(def.commit, (message) => new ToolDefinitionError(name, message)),
  });
  if (!spec.success) {
    const issue = spec.error.issues[0];
    throw new ToolDefinitionError(name, `${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return Object.freeze({ ...def, idempotency: idempotency.data, spec: spec.data });
}

/** The catalog workflow code receives: every tool's spec, in the given order. */
export function toolCatalog(tools: readonly AnyTool[]): ToolSpec[] {
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new ToolDefinitionError(t.name, 'declared twice');
    seen.add(t.name);
  }
  return tools.map((t) => t.spec);
}
