/**
 * The scripted policy's published JSON Schema (schemas/scripted-policy.schema.json, shipped as
 * `recovery-router/schemas/scripted-policy.schema.json`): it is what `npm run schemas` writes from the zod schema, and a
 * JSON Schema validator (Ajv, draft 2020-12) accepts and refuses what `parseScriptedPolicy` does — every built-in
 * scenario's script, and the mistakes the docs name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { parseScriptedPolicy, scriptedPolicyJsonSchema } from '../../activities/planners/scripted-policy';

const ROOT = join(__dirname, '..', '..');
const published = JSON.parse(readFileSync(join(ROOT, 'schemas', 'scripted-policy.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ strict: false }).compile(published);
const scenarios = join(ROOT, 'examples', 'agent-demo', 'scenarios');

test('scripted policy schema: the committed file is what `npm run schemas` writes from the zod schema', () => {
  expect(published).toEqual(scriptedPolicyJsonSchema());
});

test('scripted policy schema: every built-in scenario script validates, as a policy of one goal', () => {
  const files = readdirSync(scenarios).filter((f) => f.endsWith('.json'));
  expect(files.length).toBeGreaterThanOrEqual(10);
  for (const f of files) {
    const { goal, script } = JSON.parse(readFileSync(join(scenarios, f), 'utf8')) as { goal: string; script: unknown };
    const policy = { goals: { [goal]: script } };
    expect([f, validate(policy), validate.errors ?? null]).toEqual([f, true, null]);
    expect(() => parseScriptedPolicy(policy)).not.toThrow();
  }
});

test.each([
  ['a step without a tool', { goals: { g: { steps: [{ args: {} }], submit: { result: 1 } } } }],
  ['an unknown reaction', { goals: { g: { on: { replan: 'try_harder' }, steps: [], submit: { result: 1 } } } }],
  [
    'an `on` key that is neither class nor action',
    { goals: { g: { on: { timeout: 'stop' }, steps: [], submit: {} } } },
  ],
  ['an unknown field', { goals: { g: { steps: [{ tool: 't', retries: 3 }], submit: { result: 1 } } } }],
  ['a bad step id', { goals: { g: { steps: [{ id: 'a b', tool: 't' }], submit: { result: 1 } } } }],
  ['goals as a list', { goals: [] }],
])('scripted policy schema: %s → refused by the JSON Schema and by parseScriptedPolicy', (_name, policy) => {
  expect(validate(policy)).toBe(false);
  expect(() => parseScriptedPolicy(policy)).toThrow(/^policy: /);
});
