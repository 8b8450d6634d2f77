/**
 * The shapes of `RecoveryPluginOptions`, as a zod schema, checked before anything is built, so a wrong value fails
 * with its name rather than deep inside an activity (the attack review: `{ tools: [{ spec: 1 }] }` used to be
 * accepted). Only shapes: the config's own schema (config/schema.ts), `defineTool` and the broker check the rest.
 *
 * Node side, but the schema is built on first use as in sandbox code (recovery/lazy.ts; docs/DESIGN.md,
 * "Performance"). Each zod message is the rule; `formatOptionIssue` (recovery/errors.ts) prefixes the option's
 * path: `tools[i]`, `credentials.<id>`, `breaker.<field>`, `credentialRefresh.<field>`, `approvals.signingKey`,
 * `` `telemetry` ``, `` `planner` ``, `tracing`, `shadow.<field>` (`shadow.declare.<activity>.<field>`).
 */
import { z } from 'zod';
import { isApprovalKey } from '../activities/approval-signature';
import { breakerOptionsSchema } from '../activities/breaker';
import { CredentialBroker } from '../activities/credentials';
import { optionData, type OptionParse } from '../recovery/errors';
import { lazy } from '../recovery/lazy';
import { RecoveryError } from '../recovery/recovery-error';
import {
  credentialRefreshOptionsSchema,
  isShared,
  localRefreshOptionsSchema,
  localRest,
  sharedBreakerOptionsSchema,
} from './shared-options';
import { shadowOptionsSchema } from './shadow/options';

/** A `RecoveryPlugin` option that cannot be used. */
export class RecoveryPluginOptionsError extends RecoveryError<'invalid_plugin_options'> {
  override readonly name = 'RecoveryPluginOptionsError';
  static override readonly codes: readonly string[] = ['invalid_plugin_options'];
  constructor(message: string) {
    super('invalid_plugin_options', message);
  }
}

/** An option checked by the schema `schemaFor` picks for it (none: any value), its issues reported as the option's. */
const checkedBy = (schemaFor: (v: unknown) => z.ZodType | undefined, input: (v: unknown) => unknown = (v) => v) =>
  z
    .unknown()
    .superRefine((v, ctx) => {
      const parsed = schemaFor(v)?.safeParse(input(v));
      if (parsed?.success === false) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
    })
    .optional();

/** An option that is shared (`{ shared: … }`, checked by `shared`) or this worker's own (checked by `local`). */
const sharedOrLocal = (shared: () => z.ZodType, local: () => z.ZodType) =>
  checkedBy((v) => (isShared(v) ? shared() : local()), localRest);

const TOOLS = 'must be a non-empty array of defineTool(...) results';
const NO_SPEC = 'has no `spec` object with a string `name`: pass the result of defineTool(...), not its argument';
const PROVIDER = 'must be a CredentialProvider: an object with initial() and refresh() functions';
const TELEMETRY = 'must have a sinks() method: a RecoveryMetrics (recovery-router/metrics) or a RecoveryTelemetry';
const ENTITY_WORKER = 'must be true, false or { workflowBundle } (a bundle that exports the entity workflows)';
const PLANNER = 'must have a `plan(input)` method (createScriptedPlanner, createOpenAIPlanner)';
const TRACER = 'must be an OpenTelemetry TracerProvider: an object with a getTracer() method';
const METER = 'must be an OpenTelemetry MeterProvider: an object with a getMeter() method';

/** A function, whatever its signature (zod 4's `z.function()` is not a schema of a value). */
const fn = (error: string) => z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { error });

/**
 * One `tools` entry: an object with a `spec` whose `name` is a string, an `execute` function, and the `name` of
 * `spec` (a `defineTool` result sets both; an edited copy differs).
 */
const toolEntry = () =>
  z
    .looseObject(
      { spec: z.looseObject({ name: z.string({ error: NO_SPEC }) }, { error: NO_SPEC }), execute: z.unknown() },
      { error: 'is not a defineTool(...) result' },
    )
    .superRefine((t, ctx) => {
      const spec = JSON.stringify(t.spec.name);
      const { name } = t as { name?: unknown };
      if (typeof t.execute !== 'function') {
        ctx.addIssue({ code: 'custom', message: `(${spec}) has no \`execute\` function` });
      } else if (name !== t.spec.name) {
        ctx.addIssue({
          code: 'custom',
          message: `: \`name\` (${JSON.stringify(name)}) differs from \`spec.name\` (${spec}); do not edit a defineTool(...) result`,
        });
      }
    });

/** `approvals.signingKey`: a string or bytes, at least 32 bytes (activities/approval-signature.ts). */
const signingKey = () =>
  z
    .union([z.string(), z.instanceof(Uint8Array)], { error: 'must be a string or a Uint8Array of at least 32 bytes' })
    .refine(isApprovalKey, { error: 'needs at least 32 bytes' });

/** `tracing` as an object: OpenTelemetry providers, each with its `get…` method. */
const tracingOptionsSchema = () =>
  z
    .object(
      {
        tracerProvider: z.looseObject({ getTracer: fn(TRACER) }, { error: TRACER }).optional(),
        meterProvider: z.looseObject({ getMeter: fn(METER) }, { error: METER }).optional(),
      },
      { error: 'must be false or { tracerProvider?, meterProvider? } (OpenTelemetry providers)' },
    )
    .strict();

/** A non-array object as a plain object of its own enumerable string keys; anything else as it is. */
function ownEntries(v: unknown): unknown {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v } : v;
}

/** The options' schema; `config` is left to `parseConfigObject`/`loadConfig`, which name its fields themselves. */
export const pluginOptionsSchema = lazy(() =>
  z.looseObject(
    {
      tools: z.array(toolEntry(), { error: TOOLS }).min(1, { error: TOOLS }),
      // A broker is taken as it is; any other object is read by its own enumerable keys (as `new CredentialBroker`
      // reads it, with Object.entries), so an instance of the caller's class is a record too (zod's is plain only).
      credentials: z
        .preprocess(
          (v) => (v instanceof CredentialBroker ? undefined : ownEntries(v)),
          z
            .record(z.string(), z.looseObject({ initial: fn(PROVIDER), refresh: fn(PROVIDER) }, { error: PROVIDER }), {
              error: 'must be a CredentialBroker or an object of CredentialProvider by credential id',
            })
            .optional(),
        )
        .optional(),
      breaker: sharedOrLocal(sharedBreakerOptionsSchema, breakerOptionsSchema),
      credentialRefresh: sharedOrLocal(credentialRefreshOptionsSchema, localRefreshOptionsSchema),
      entityWorker: z
        .union([z.boolean(), z.looseObject({ workflowBundle: z.looseObject({}) })], { error: ENTITY_WORKER })
        .optional(),
      approvals: z
        .looseObject(
          { signingKey: signingKey().optional() },
          { error: 'must be an object { signingKey?: string | Uint8Array of at least 32 bytes }' },
        )
        .optional(),
      telemetry: z
        .looseObject({ sinks: fn(TELEMETRY), addTools: fn(TELEMETRY).optional() }, { error: TELEMETRY })
        .optional(),
      planner: z.looseObject({ plan: fn(PLANNER) }, { error: PLANNER }).optional(),
      searchAttributes: z.boolean({ error: 'must be true or false' }).optional(),
      tracing: checkedBy((v) => (v === false ? undefined : tracingOptionsSchema())),
      shadow: checkedBy(() => shadowOptionsSchema()),
    },
    { error: `\`tools\` ${TOOLS}` },
  ),
);

/** How many path segments name an option's subject: a tool by its index, a provider by its id, a field by name. */
const SUBJECT_DEPTH: Readonly<Record<string, number>> = {
  telemetry: 1,
  planner: 1,
  entityWorker: 1,
  tracing: 2,
  shadow: 4,
};

/**
 * Checks the options' shapes.
 * @throws RecoveryPluginOptionsError `RecoveryPlugin: <option path> <rule>` for the first problem, e.g.
 *   `RecoveryPlugin: tools[1] has no \`spec\` object …`, `RecoveryPlugin: breaker.threshold must be a positive integer
 *   (got 0)`, `RecoveryPlugin: \`telemetry\` must have a sinks() method …`.
 */
export function checkOptions(options: unknown): void {
  checkedOption(pluginOptionsSchema().safeParse(options), 'RecoveryPlugin', [], (option) => SUBJECT_DEPTH[option] ?? 2);
}

/**
 * The data of `parsed` (a zod schema's or a core shape's `safeParse`).
 * @throws RecoveryPluginOptionsError `<where>: <option path> <rule>` for its first issue, its path below `at`.
 */
export function checkedOption<T>(
  parsed: OptionParse<T>,
  where: string,
  at: readonly string[],
  depth?: (option: string) => number,
): T {
  return optionData(parsed, at, (message) => new RecoveryPluginOptionsError(`${where}: ${message}`), depth);
}
