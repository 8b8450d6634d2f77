/**
 * Declaring a tool: `defineTool({...})`. Node side: a definition holds the `execute` function and zod schemas;
 * workflow code sees only its serializable `ToolSpec` (`toolSpec(def)`).
 */
import { z } from 'zod';
import type { ToolClassifier } from '../recovery/classify';
import { IdempotencySchema, ToolSpecSchema, type Idempotency, type ToolSpec } from '../recovery/tool-spec';
import type { ToolContext } from './tool-context';

/** A tool's answer to `lookup(operationId)`: the terminal state of a write (the reconcile route). */
export type LookupResult<O> =
  | { state: 'applied'; result: O }
  | { state: 'not_applied' }
  | { state: 'unknown'; detail?: string };

/** A broken business rule found by trusted code before dispatch: a field (path) and what is wrong, in words. */
export interface RuleViolation {
  path: (string | number)[];
  message: string;
  suggestion?: string;
}

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Unique name, 1-64 characters of [a-zA-Z0-9_.-]. */
  name: string;
  /** What the tool does, for the planner. */
  description: string;
  /** Arguments schema. Its JSON Schema (zod 4 `z.toJSONSchema`) is what a planner sees. */
  input: I;
  /** Result schema. A result that fails it is `invalid_result` (route: reject), never passed on. */
  output: O;
  /** `read` has no side effect; `write` may change the world. */
  effect: 'read' | 'write';
  /** How the call carries its idempotency key. @default { carrier: 'none' } */
  idempotency?: Idempotency;
  /** Terminal-state query by operation_id for writes whose outcome is unknown (the reconcile route). */
  lookup?(operationId: string, ctx: ToolContext): Promise<LookupResult<z.output<O>>>;
  /**
   * Business invariants checked by trusted code (seed 000: valid JSON is not a valid operation).
   * `before` runs after the input schema and before any I/O: violations are `invalid_arguments`, nothing is
   * dispatched. `after` runs on a schema-valid result: a returned message makes it `invalid_result`.
   */
  validate?: {
    before?(args: z.output<I>): RuleViolation[] | undefined | Promise<RuleViolation[] | undefined>;
    after?(result: z.output<O>, args: z.output<I>): string | undefined;
  };
  /** Overrides or extends the built-in classification (precedence: recovery/classify/index.ts). */
  classify?: ToolClassifier;
  /** Activity timeouts, in ms. @default { startToCloseMs: 30_000 } */
  timeouts?: { startToCloseMs?: number; heartbeatMs?: number };
  /** Permission a caller needs; discovery is not authorisation. */
  scope?: string;
  /** A 403 can be lifted by human approval (the workflow waits for the approval signal). @default false */
  approvalCanLift?: boolean;
  /** Credential id the broker supplies (activities/credentials.ts). */
  credential?: string;
  /** Circuit-breaker key shared by every tool calling the same downstream. @default the tool's name */
  downstream?: string;
  /** Performs the call. Throw (or let `ctx.http` throw) on failure: the activity classifies what it throws. */
  execute(args: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
}

/** A definition whose defaults are filled in. */
export type DefinedTool<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = ToolDefinition<I, O> & {
  readonly idempotency: Idempotency;
  readonly spec: ToolSpec;
};

/** Any defined tool, whatever its schemas (for collections of tools). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = DefinedTool<any, any>;

/** A `defineTool` argument that cannot be used. */
export class ToolDefinitionError extends Error {
  override readonly name = 'ToolDefinitionError';
  constructor(
    readonly tool: string,
    message: string,
  ) {
    super(`defineTool(${JSON.stringify(tool)}): ${message}`);
  }
}

const DEFAULT_START_TO_CLOSE_MS = 30_000;

/**
 * Declares a tool.
 * @throws ToolDefinitionError when a field is missing or wrong (bad name, `input`/`output` not zod schemas,
 *   no `execute`, timeouts not positive integers in ms, an idempotency key carried in a field of a read-only
 *   declaration that has no such field is allowed but a `header` carrier without a name is not).
 */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(def: ToolDefinition<I, O>): DefinedTool<I, O> {
  const name = typeof def?.name === 'string' ? def.name : '(unnamed)';
  if (!(def.input instanceof z.ZodType)) throw new ToolDefinitionError(name, '`input` must be a zod schema');
  if (!(def.output instanceof z.ZodType)) throw new ToolDefinitionError(name, '`output` must be a zod schema');
  if (typeof def.execute !== 'function') throw new ToolDefinitionError(name, '`execute` must be a function');
  if (def.lookup !== undefined && typeof def.lookup !== 'function') {
    throw new ToolDefinitionError(name, '`lookup` must be a function (operationId, ctx) => LookupResult');
  }
  const idempotency = IdempotencySchema.safeParse(def.idempotency ?? { carrier: 'none' });
  if (!idempotency.success) throw new ToolDefinitionError(name, `idempotency: ${idempotency.error.issues[0]?.message}`);
  let inputSchema: Record<string, unknown>;
  try {
    inputSchema = z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch (err) {
    throw new ToolDefinitionError(name, `input has no JSON Schema form (${(err as Error).message})`);
  }
  const spec = ToolSpecSchema.safeParse({
    name: def.name,
    description: def.description,
    inputSchema,
    effect: def.effect,
    idempotency: idempotency.data,
    hasLookup: def.lookup !== undefined,
    scope: def.scope,
    approvalCanLift: def.approvalCanLift ?? false,
    startToCloseTimeoutMs: def.timeouts?.startToCloseMs ?? DEFAULT_START_TO_CLOSE_MS,
    heartbeatTimeoutMs: def.timeouts?.heartbeatMs,
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
