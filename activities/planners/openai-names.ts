/**
 * The function names the model sees (openai.ts, "Function names"): a capability's own name when OpenAI accepts it,
 * else an alias that is valid, unique in the request, and the same for the same capability list.
 */
import { createHash } from 'node:crypto';
import type { Capability } from '../../recovery/tool-spec';
import { PlannerConfigError } from './openai-errors';

/** The name of the built-in terminal tool. */
export const SUBMIT_TOOL = 'submit';
/**
 * What OpenAI accepts as a function name: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
 * length of 64" (https://platform.openai.com/docs/api-reference/chat/create, `tools[].function.name`).
 */
export const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Longest function name, in characters. */
export const MAX_FUNCTION_NAME_CHARS = 64;

/** The function names of one request's capabilities, both ways. Valid names map to themselves. */
export interface ToolNames {
  /** Capability name → the function name the model sees. */
  readonly toModel: ReadonlyMap<string, string>;
  /** Function name the model sees → capability name. */
  readonly fromModel: ReadonlyMap<string, string>;
}

/**
 * The function name of each capability (rules in the module docstring): a valid name is kept; another gets an
 * alias that is valid, unique in the request, and the same for the same capability list.
 * @throws PlannerConfigError `invalid_option` when a capability is named `submit`.
 */
export function toolNamesFor(capabilities: readonly Pick<Capability, 'name'>[]): ToolNames {
  const toModel = new Map<string, string>();
  const taken = new Set<string>([SUBMIT_TOOL]);
  for (const { name } of capabilities) {
    if (name === SUBMIT_TOOL) {
      throw new PlannerConfigError(
        'invalid_option',
        `a capability is named "${SUBMIT_TOOL}", which the planner reserves`,
      );
    }
    if (FUNCTION_NAME.test(name)) {
      toModel.set(name, name);
      taken.add(name);
    }
  }
  for (const { name } of capabilities) {
    if (toModel.has(name)) continue;
    const alias = aliasOf(name, taken);
    toModel.set(name, alias);
    taken.add(alias);
  }
  return { toModel, fromModel: new Map([...toModel].map(([real, alias]) => [alias, real])) };
}

/** A valid function name for `name` not in `taken`: `_` for every other character, shortened + hash when needed. */
function aliasOf(name: string, taken: ReadonlySet<string>): string {
  const plain = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (plain !== '' && plain.length <= MAX_FUNCTION_NAME_CHARS && !taken.has(plain)) return plain;
  const head = plain.slice(0, MAX_FUNCTION_NAME_CHARS - 9);
  // The hash of the real name; a collision (with another alias of the same 55-character head) takes the next salt.
  for (let salt = 0; ; salt += 1) {
    const hash = createHash('sha256')
      .update(salt === 0 ? name : `${name}#${salt}`)
      .digest('hex')
      .slice(0, 8);
    const alias = `${head}_${hash}`;
    if (!taken.has(alias)) return alias;
  }
}
