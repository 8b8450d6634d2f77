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
 * - `script`: a scripted planner goal (activities/planners/scripted-policy.ts documents it). In any string of
 *   `script` and `expect.result`, `{{files}}` is replaced by the folder the filesystem MCP server may read,
 *   `{{outside}}` by a folder it may not.
 * - `tools`: the tool names offered to this run (@default every demo tool); `grantedScopes` (@default `[]`).
 * - `arrange`: `service` scripts the support service (route `"GET /inventory"` → replies, as
 *   examples/scripted-service.ts); `ledgerFaults` queues faults of the refund/e-mail service
 *   (examples/ledger-service.ts); `calendar.takeAfterListing` books a slot for someone else right after the next
 *   listing of its day; `files` writes text files (paths relative to `{{files}}`).
 * - `expect`: `status` (required); `result` (deep-equal, JSON); `actions`: per recovery record, in order, its
 *   action or `"ok"` for a success; `hits` (`"<service>:<METHOD /path>"` → requests during the run) and `rows`
 *   (`"ledger:refunds"`, `"ledger:emails"`, `"calendar:bookings"` → rows added during the run).
 *
 * A file is refused (ScenarioFileError naming it) when it is not UTF-8, not JSON, nested more than
 * `MAX_SCENARIO_DEPTH` arrays/objects deep, holds a `"__proto__"` key anywhere (JSON.parse keeps it as an own key,
 * but object handling drops it or sets the prototype, so what runs would differ from what the file says), or fails
 * the schema. `checkScenarios` also refuses a `name` or `goal` of `__proto__`, `constructor` or `prototype`: the
 * scripted planner keys its scripts by goal in a plain object.
 */
import { readFileSync } from 'node:fs';
import { fieldPath } from '../../activities/planners/scripted';
import { RecoveryError } from '../../recovery/recovery-error';
import { AgentScenarioSchema, MAX_SCENARIO_DEPTH, RESERVED_KEYS, type AgentScenario } from './scenario-schema';

export {
  AgentScenarioSchema,
  MAX_SCENARIO_DEPTH,
  RESERVED_KEYS,
  ROW_COUNTERS,
  type AgentScenario,
  type RowCounter,
} from './scenario-schema';

/** A scenario file the main job cannot use. The message starts with the file and names the field at fault. */
export class ScenarioFileError extends RecoveryError<'invalid_scenario_file'> {
  override readonly name = 'ScenarioFileError';
  static override readonly codes: readonly string[] = ['invalid_scenario_file'];
  constructor(
    readonly path: string,
    readonly field: string,
    message: string,
  ) {
    super('invalid_scenario_file', `${path}: ${field ? `${field}: ` : ''}${message}`);
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
  let parsed: ReturnType<typeof AgentScenarioSchema.safeParse>;
  try {
    parsed = AgentScenarioSchema.safeParse(value);
  } catch (err) {
    // The schema recurses into `z.json()` values: a value nested deeper than the stack is a RangeError.
    if (err instanceof RangeError) throw tooDeep(source, index === undefined ? '' : `[${index}]`);
    throw err;
  }
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
 * @throws ScenarioFileError when the file cannot be read, is not UTF-8 (`not UTF-8`), is not JSON, is nested more
 *   than `MAX_SCENARIO_DEPTH` levels (`too deeply nested`), holds a `"__proto__"` key (naming its field), or fails
 *   the schema (`[1].goal: …` for the second scenario of an array).
 */
export function loadScenarioFile(path: string): AgentScenario[] {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new ScenarioFileError(
      path,
      '',
      `cannot read the scenario file${typeof code === 'string' ? ` (${code})` : ''}`,
    );
  }
  let text: string;
  try {
    // fatal: a byte sequence that is not UTF-8 is an error, not a silent U+FFFD.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ScenarioFileError(path, '', 'not UTF-8: save the file as UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    if (err instanceof RangeError) throw tooDeep(path, '');
    throw new ScenarioFileError(path, '', `not JSON (${(err as Error).message})`);
  }
  checkShape(value, path);
  if (!Array.isArray(value)) return [parseScenario(value, path)];
  if (value.length === 0) throw new ScenarioFileError(path, '', 'the array holds no scenario');
  return value.map((v, i) => parseScenario(v, path, i));
}

function tooDeep(path: string, field: string): ScenarioFileError {
  return new ScenarioFileError(
    path,
    field,
    `too deeply nested (at most ${MAX_SCENARIO_DEPTH} levels of arrays and objects)`,
  );
}

/**
 * Refuses a parsed file nested deeper than `MAX_SCENARIO_DEPTH`, or holding a `"__proto__"` key (the first one in
 * document order, named by its field path). Iterative, so any depth JSON.parse returns is safe to walk.
 */
function checkShape(root: unknown, path: string): void {
  const stack: { value: unknown; at: PropertyKey[] }[] = [{ value: root, at: [] }];
  while (stack.length > 0) {
    const { value, at } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (at.length >= MAX_SCENARIO_DEPTH) throw tooDeep(path, '');
    const children: { value: unknown; at: PropertyKey[] }[] = [];
    if (Array.isArray(value)) {
      value.forEach((v: unknown, i) => children.push({ value: v, at: [...at, i] }));
    } else {
      for (const [k, v] of Object.entries(value)) {
        if (k === '__proto__') {
          throw new ScenarioFileError(
            path,
            fieldPath([...at, k]),
            'a "__proto__" key is not allowed (it would be dropped, not used)',
          );
        }
        children.push({ value: v, at: [...at, k] });
      }
    }
    // Last child pushed first, so the first child is walked first: the first "__proto__" in the file is named.
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]!);
  }
}

/**
 * Checks a set of scenarios against the demo's catalog: names and goals unique and none of `RESERVED_KEYS`, every
 * `tools` entry a known tool.
 * @throws ScenarioFileError naming the scenario (`source` is its origin) and the field.
 */
export function checkScenarios(
  scenarios: readonly { scenario: AgentScenario; source: string }[],
  toolNames: readonly string[],
): void {
  const names = new Set<string>();
  const goals = new Set<string>();
  for (const { scenario, source } of scenarios) {
    if (RESERVED_KEYS.includes(scenario.name)) {
      throw new ScenarioFileError(source, 'name', `"${scenario.name}" cannot be a scenario name`);
    }
    if (RESERVED_KEYS.includes(scenario.goal)) {
      throw new ScenarioFileError(
        source,
        'goal',
        `"${scenario.goal}" cannot be a goal (the scripted planner keys scripts by goal in an object)`,
      );
    }
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
