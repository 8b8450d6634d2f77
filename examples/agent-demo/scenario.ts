/**
 * An agent scenario of the main job, as JSON: a goal, the scripted planner's script for it, the faults to arm on
 * the demo's services, and what must hold at the end. The built-in scenarios (examples/agent-demo/scenarios/*.json)
 * and a user's own (`npm start -- --scenario my.json`) use this one format.
 *
 * ```json
 * {
 *   "name": "calendar-race",
 *   "description": "the slot is taken between plan and execution: 409 → replan → another slot",
 *   "goal": "Book a call for cus_7 on 2026-12-01",
 *   "script": { "on": { "replan": "next_alternative" }, "steps": [...], "submit": { "resultFrom": "book" } },
 *   "arrange": { "calendar": { "takeAfterListing": [{ "day": "2026-12-01", "slot": "10:00", "byCustomer": "cus_9" }] } },
 *   "expect": { "status": "submitted", "actions": ["ok", "replan", "ok"], "rows": { "calendar:bookings": 2 } }
 * }
 * ```
 *
 * - `script`: a scripted planner goal (activities/planners/scripted.ts documents it). In any string of `script` and
 *   `expect.result`, `{{files}}` is replaced by the folder the filesystem MCP server may read, `{{outside}}` by a
 *   folder it may not.
 * - `tools`: the tool names offered to this run (@default every demo tool); `grantedScopes` (@default `[]`).
 * - `arrange`: `service` scripts the support service (route `"GET /inventory"` → replies, as
 *   examples/scripted-service.ts); `ledgerFaults` queues faults of the refund/e-mail service
 *   (examples/ledger-service.ts); `calendar.takeAfterListing` books a slot for someone else right after the next
 *   listing of its day; `files` writes text files (paths relative to `{{files}}`).
 * - `expect`: `status` (required); `result` (deep-equal, JSON); `actions`: per recovery record, in order, its
 *   action or `"ok"` for a success; `hits` (`"<service>:<METHOD /path>"` → requests during the run) and `rows`
 *   (`"ledger:refunds"`, `"ledger:emails"`, `"calendar:bookings"` → rows added during the run).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ScriptedGoalSchema, fieldPath } from '../../activities/planners/scripted';
import { AgentStatus } from '../../workflows/agent';

const ROUTE = /^(GET|POST|PUT|PATCH|DELETE) \/\S*$/;

const ScriptStepSchema = z
  .object({
    status: z.number().int().min(100).max(599).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.json().optional(),
    delayMs: z.number().int().min(0).max(60_000).optional(),
    destroy: z.boolean().optional(),
  })
  .strict();

const LedgerFaultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('lose_response') }).strict(),
  z.object({ kind: z.literal('late_response'), delayMs: z.number().int().min(0).max(60_000) }).strict(),
  z.object({ kind: z.literal('slow_commit'), delayMs: z.number().int().min(0).max(60_000) }).strict(),
  z.object({ kind: z.literal('fail_before_commit') }).strict(),
  z.object({ kind: z.literal('lost_in_transit') }).strict(),
]);

const RelativeFile = z
  .string()
  .regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$))[A-Za-z0-9_.\-/]{1,200}$/, 'a relative path without ".." segments');

/** The names `expect.rows` may count. */
export const ROW_COUNTERS = ['ledger:refunds', 'ledger:emails', 'calendar:bookings'] as const;
export type RowCounter = (typeof ROW_COUNTERS)[number];

export const AgentScenarioSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'names are 1-64 characters of [A-Za-z0-9_.-]'),
    description: z.string().max(500).default(''),
    goal: z.string().min(1).max(8_000),
    script: ScriptedGoalSchema,
    tools: z.array(z.string().min(1)).min(1).optional(),
    grantedScopes: z.array(z.string().min(1)).default([]),
    maxTurns: z.number().int().min(1).max(100).optional(),
    arrange: z
      .object({
        service: z
          .record(z.string().regex(ROUTE, 'routes read "METHOD /path"'), z.array(ScriptStepSchema).min(1))
          .optional(),
        ledgerFaults: z.array(LedgerFaultSchema).optional(),
        calendar: z
          .object({
            takeAfterListing: z.array(
              z
                .object({
                  day: z.iso.date(),
                  slot: z.string().regex(/^\d{2}:\d{2}$/),
                  byCustomer: z.string().regex(/^cus_/),
                })
                .strict(),
            ),
          })
          .strict()
          .optional(),
        files: z.record(RelativeFile, z.string().max(1_000_000)).optional(),
      })
      .strict()
      .default({}),
    expect: z
      .object({
        status: z.enum(Object.values(AgentStatus) as [AgentStatus, ...AgentStatus[]]),
        result: z.json().optional(),
        actions: z.array(z.string().min(1)).optional(),
        hits: z
          .record(
            z.string().regex(/^(service|ledger|calendar):(GET|POST|PUT|PATCH|DELETE) \/\S*$/),
            z.number().int().min(0),
          )
          .optional(),
        rows: z.partialRecord(z.enum(ROW_COUNTERS), z.number().int().min(0)).optional(),
      })
      .strict(),
  })
  .strict();

export type AgentScenario = z.output<typeof AgentScenarioSchema>;

/** A scenario file the main job cannot use. The message starts with the file and names the field at fault. */
export class ScenarioFileError extends Error {
  override readonly name = 'ScenarioFileError';
  constructor(
    readonly path: string,
    readonly field: string,
    message: string,
  ) {
    super(`${path}: ${field ? `${field}: ` : ''}${message}`);
  }
}

/**
 * Validates a scenario value.
 * @param source names it in errors (a file path).
 * @param index its position in a file that holds an array, for the field path (`[1].goal`).
 * @throws ScenarioFileError naming `source` and the field, e.g. `my.json: expect.status: Invalid option: expected
 *   one of "submitted"|"no_submission"|"stopped"|"escalated"`.
 */
export function parseScenario(value: unknown, source: string, index?: number): AgentScenario {
  const parsed = AgentScenarioSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = [...(index === undefined ? [] : [index]), ...(issue?.path ?? [])];
  // A record key that fails its rule: say which rule (zod's own message is only "Invalid key in record").
  const nested = issue?.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
  const message = nested ? `invalid key: ${nested}` : (issue?.message ?? 'invalid value');
  throw new ScenarioFileError(source, path.length ? fieldPath(path) : '', message);
}

/**
 * Reads a scenario file: one scenario object, or an array of them (UTF-8 JSON, a leading BOM is accepted).
 * @throws ScenarioFileError when the file cannot be read, is not JSON, or fails the schema (`[1].goal: …` for the
 *   second scenario of an array).
 */
export function loadScenarioFile(path: string): AgentScenario[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new ScenarioFileError(
      path,
      '',
      `cannot read the scenario file${typeof code === 'string' ? ` (${code})` : ''}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ScenarioFileError(path, '', `not JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(value)) return [parseScenario(value, path)];
  if (value.length === 0) throw new ScenarioFileError(path, '', 'the array holds no scenario');
  return value.map((v, i) => parseScenario(v, path, i));
}

/**
 * Checks a set of scenarios against the demo's catalog: names and goals unique, every `tools` entry a known tool.
 * @throws ScenarioFileError naming the scenario (`source` is its origin) and the field.
 */
export function checkScenarios(
  scenarios: readonly { scenario: AgentScenario; source: string }[],
  toolNames: readonly string[],
): void {
  const names = new Set<string>();
  const goals = new Set<string>();
  for (const { scenario, source } of scenarios) {
    if (names.has(scenario.name))
      throw new ScenarioFileError(source, 'name', `another scenario is named "${scenario.name}"`);
    if (goals.has(scenario.goal))
      throw new ScenarioFileError(
        source,
        'goal',
        'another scenario has the same goal (the scripted planner keys scripts by goal)',
      );
    names.add(scenario.name);
    goals.add(scenario.goal);
    scenario.tools?.forEach((t, i) => {
      if (!toolNames.includes(t)) {
        throw new ScenarioFileError(source, `tools[${i}]`, `no tool named "${t}" (tools: ${toolNames.join(', ')})`);
      }
    });
  }
}

/** `value` with `{{files}}` and `{{outside}}` replaced in every string. */
export function withPlaceholders<T>(value: T, folders: { files: string; outside: string }): T {
  return JSON.parse(
    JSON.stringify(value).replace(/\{\{(files|outside)\}\}/g, (_m, key: 'files' | 'outside') =>
      JSON.stringify(folders[key]).slice(1, -1),
    ),
  ) as T;
}
