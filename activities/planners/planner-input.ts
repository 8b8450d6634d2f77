/**
 * The planner activity's input (docs/DESIGN.md, "Workflow code and the worker"): `agentWorkflow` sends the permitted
 * capabilities by name (`PlannerStepInput`), and the activity expands them from the worker's catalog into the
 * `PlannerInput` a planner sees, so a run's history does not carry every tool's description and JSON Schema every
 * turn. A full `PlannerInput` (runs recorded before the change) is taken as it is. Node-side only.
 *
 * Where the catalog comes from: `createPlannerActivities(planner, { catalog })`, the plugin's `planner` option, or,
 * for planner activities registered on a Worker with the `RecoveryPlugin`, the plugin (`withCatalog`, called by
 * plugin/plugin-config.ts: the Worker's plugin supplies its catalog to them).
 */
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { ApplicationFailureType } from '../../recovery/failure-types';
import type { Capability } from '../../recovery/tool-spec';
import { OBSERVATION_KINDS, type PlannerInput, type PlannerStepInput } from '../../workflows/planner-contract';

/** A tool the planner may be shown: a `ToolSpec` (`plugin.catalog`) or a `Capability`. */
export type CatalogEntry = Pick<Capability, 'name' | 'description' | 'inputSchema'>;

const observations = z.array(z.object({ kind: z.enum(OBSERVATION_KINDS) }));
const capability = z.object({
  name: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
});
const base = {
  goal: z.string().min(1),
  turn: z.number().int().min(1),
  observations,
  omittedObservations: z.number().int().min(0).optional(),
};
const StepInputShape = z.object({ ...base, capabilityNames: z.array(z.string()) });
const PlannerInputShape = z.object({ ...base, capabilities: z.array(capability) });
const namesCapabilities = (input: unknown) =>
  typeof input === 'object' && input !== null && Object.hasOwn(input, 'capabilityNames');

/**
 * `input` as the planner sees it: its capabilities expanded from `catalog` when it names them.
 * @throws ApplicationFailure `planner_invalid_input` (non-retryable) when `input` is neither a `PlannerInput` nor a
 *   `PlannerStepInput` (names the field), or names capabilities and no catalog is known; (retryable) when the
 *   catalog lacks a named tool (a worker of an older catalog: another worker may have it).
 */
export function readPlannerInput(input: unknown, catalog: readonly CatalogEntry[] | undefined): PlannerInput {
  const checked = (namesCapabilities(input) ? StepInputShape : PlannerInputShape).safeParse(input);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw invalid(`PlannerInput.${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid value'}`);
  }
  const given = input as PlannerInput | PlannerStepInput;
  if (!('capabilityNames' in given)) return given;
  if (catalog === undefined) {
    throw invalid(
      'planNextStep has no catalog to expand the capability names: register it on a Worker with the RecoveryPlugin, ' +
        'use the plugin’s `planner` option, or pass createPlannerActivities(planner, { catalog: plugin.catalog })',
    );
  }
  const { capabilityNames, ...rest } = given;
  const byName = new Map(catalog.map((t) => [t.name, t]));
  const missing = capabilityNames.filter((n) => !byName.has(n));
  if (missing.length > 0) {
    throw bare(
      ApplicationFailure.retryable(
        `The planner's catalog has no tool named ${missing.map((n) => JSON.stringify(n.slice(0, 64))).join(', ')}; ` +
          'the workflow worker and the planner worker run different catalogs.',
        ApplicationFailureType.PLANNER_INVALID_INPUT,
      ),
    );
  }
  const capabilities = capabilityNames.map((n) => {
    const t = byName.get(n)!;
    return { name: t.name, description: t.description, inputSchema: t.inputSchema };
  });
  return { ...rest, capabilities };
}

function invalid(message: string): ApplicationFailure {
  return bare(
    ApplicationFailure.create({ type: ApplicationFailureType.PLANNER_INVALID_INPUT, message, nonRetryable: true }),
  );
}

/** `failure` without a stack: in history it would carry worker file paths (as failure-edge.ts does). */
export function bare(failure: ApplicationFailure): ApplicationFailure {
  failure.stack = '';
  return failure;
}

/** The key of a planner activity's way to a copy of itself with a catalog (see the module's docs). */
export const WITH_CATALOG: unique symbol = Symbol.for('recovery-router.planner-with-catalog');

/** A planner activity the Worker's plugin can give its catalog, when it was built without one. */
export type CatalogBindable = ((input: PlannerInput | PlannerStepInput) => Promise<unknown>) & {
  [WITH_CATALOG]?: (catalog: readonly CatalogEntry[]) => unknown;
};
