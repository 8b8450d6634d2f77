/** Scenario files of the main job (examples/agent-demo/scenario.ts): a bad file is refused with its path and field. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtInScenarios } from '../../examples/agent-demo/builtin';
import {
  checkScenarios,
  loadScenarioFile,
  MAX_SCENARIO_DEPTH,
  parseScenario,
  ScenarioFileError,
  withPlaceholders,
} from '../../examples/agent-demo/scenario';

const dir = mkdtempSync(join(tmpdir(), 'rr-scenario-'));
const write = (name: string, text: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const good = {
  name: 'mine',
  goal: 'Check stock',
  script: { steps: [{ id: 's', tool: 'check_inventory', args: { sku: 'SKU-1' } }], submit: { resultFrom: 's' } },
  expect: { status: 'submitted' },
};
const refused = (path: string) => {
  try {
    loadScenarioFile(path);
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioFileError);
    return (err as ScenarioFileError).message;
  }
  throw new Error('accepted');
};

test('a valid file loads with defaults filled in', () => {
  const [s] = loadScenarioFile(write('good.json', JSON.stringify(good)));
  expect(s).toMatchObject({
    name: 'mine',
    description: '',
    grantedScopes: [],
    arrange: {},
    expect: { status: 'submitted' },
  });
  expect(s!.script.steps[0]).toMatchObject({ id: 's', fixes: [], alternatives: [], on: {} });
});

test.each([
  [
    'no status',
    { ...good, expect: {} },
    'expect.status: Invalid option: expected one of "submitted"|"no_submission"|"stopped"|"escalated"',
  ],
  ['a status that is no status', { ...good, expect: { status: 'success' } }, 'expect.status: Invalid option'],
  [
    'a step without tool',
    { ...good, script: { steps: [{ args: {} }], submit: { result: 1 } } },
    'script.steps[0].tool: Invalid input: expected string, received undefined',
  ],
  [
    'resultFrom naming no step',
    { ...good, script: { ...good.script, submit: { resultFrom: 'nope' } } },
    'script.submit.resultFrom: no step has the id "nope" (steps: s)',
  ],
  ['an unknown key', { ...good, extra: 1 }, ': Unrecognized key: "extra"'],
  [
    'a bad route',
    { ...good, arrange: { service: { 'FETCH inventory': [{ status: 200 }] } } },
    'arrange.service["FETCH inventory"]: invalid key: routes read "METHOD /path"',
  ],
  [
    'a file path escaping the folder',
    { ...good, arrange: { files: { '../etc/passwd': 'x' } } },
    'arrange.files["../etc/passwd"]: invalid key: a relative path without ".." segments',
  ],
  [
    'a bad ledger fault',
    { ...good, arrange: { ledgerFaults: [{ kind: 'explode' }] } },
    'arrange.ledgerFaults[0].kind: Invalid input',
  ],
  ['a bad name', { ...good, name: 'my scenario!' }, 'name: names are 1-64 characters of [A-Za-z0-9_.-]'],
])('refused: %s', (_what, value, message) => {
  const path = write('bad.json', JSON.stringify(value));
  const text = refused(path);
  expect(text.startsWith(`${path}: `)).toBe(true);
  expect(text).toContain(message);
});

test('in an array, the field path starts with the index', () => {
  const path = write('many.json', JSON.stringify([good, { ...good, name: 'two', goal: '' }]));
  expect(refused(path)).toBe(`${path}: [1].goal: Too small: expected string to have >=1 characters`);
});

test('unreadable, not JSON, empty array: each names the file', () => {
  expect(refused(join(dir, 'missing.json'))).toBe(
    `${join(dir, 'missing.json')}: cannot read the scenario file (ENOENT)`,
  );
  expect(refused(write('broken.json', '{"name":'))).toMatch(/broken\.json: not JSON \(/);
  expect(refused(write('empty.json', '[]'))).toMatch(/empty\.json: the array holds no scenario$/);
  expect(loadScenarioFile(write('bom.json', `\uFEFF${JSON.stringify(good)}`))).toHaveLength(1);
});

/** `{"a":{"a":…{}}}`, `levels` objects deep (1 = `{}`). */
const nested = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i += 1) value = { a: value };
  return value;
};
const TOO_DEEP = `too deeply nested (at most ${MAX_SCENARIO_DEPTH} levels of arrays and objects)`;
/** `good` with these `args` for its step; the args object sits at level 5 of the file (root, script, steps, step). */
const withArgs = (args: unknown) => ({
  ...good,
  script: { ...good.script, steps: [{ ...good.script.steps[0], args }] },
});

test('JSON nested 20,000 deep (arrays, or objects inside args) → too deeply nested, naming the file', () => {
  const arrays = write('deep-arrays.json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`);
  expect(refused(arrays)).toBe(`${arrays}: ${TOO_DEEP}`);
  const objects = write(
    'deep-objects.json',
    JSON.stringify(withArgs({})).replace('"args":{}', `"args":${'{"a":'.repeat(20_000)}{}${'}'.repeat(20_000)}`),
  );
  expect(refused(objects)).toBe(`${objects}: ${TOO_DEEP}`);
});

test(`nesting: ${MAX_SCENARIO_DEPTH} levels load, ${MAX_SCENARIO_DEPTH + 1} are refused`, () => {
  const [s] = loadScenarioFile(write('deep-ok.json', JSON.stringify(withArgs(nested(MAX_SCENARIO_DEPTH - 4)))));
  expect(s!.script.steps[0]!.args).toEqual(nested(MAX_SCENARIO_DEPTH - 4));
  const path = write('deep-101.json', JSON.stringify(withArgs(nested(MAX_SCENARIO_DEPTH - 3))));
  expect(refused(path)).toBe(`${path}: ${TOO_DEEP}`);
});

test('parseScenario on a value nested 20,000 deep → ScenarioFileError too deeply nested, not a RangeError', () => {
  const value = withArgs(nested(20_000));
  expect(() => parseScenario(value, 'deep.json')).toThrow(new ScenarioFileError('deep.json', '', TOO_DEEP));
  expect(() => parseScenario(value, 'deep.json', 2)).toThrow(`deep.json: [2]: ${TOO_DEEP}`);
});

test.each([
  [
    'in args',
    JSON.stringify(withArgs({ sku: 'SKU-1' })).replace('"args":{', '"args":{"__proto__":{"admin":true},'),
    'script.steps[0].args.__proto__',
  ],
  ['at the top', `{"__proto__":{"name":"x"},${JSON.stringify(good).slice(1)}`, '__proto__'],
  ['in an array of scenarios', `[${JSON.stringify(good)},{"__proto__":null}]`, '[1].__proto__'],
  [
    'the first of two',
    JSON.stringify({ ...good, expect: { status: 'submitted', result: { b: 1 } } })
      .replace('"result":{', '"result":{"__proto__":1,')
      .replace('"goal":', '"description":{"__proto__":2},"goal":'),
    'description.__proto__',
  ],
])('a "__proto__" key (%s) is refused, naming its field', (_where, text, field) => {
  const path = write('proto.json', text);
  expect(refused(path)).toBe(`${path}: ${field}: a "__proto__" key is not allowed (it would be dropped, not used)`);
});

test('a file that is not UTF-8 (Latin-1 "é") → not UTF-8; UTF-8 "é" loads', () => {
  const latin1 = write('latin1.json', Buffer.from(JSON.stringify({ ...good, goal: 'Café stock' }), 'latin1'));
  expect(refused(latin1)).toBe(`${latin1}: not UTF-8: save the file as UTF-8`);
  const [s] = loadScenarioFile(write('utf8.json', JSON.stringify({ ...good, goal: 'Café stock' })));
  expect(s!.goal).toBe('Café stock');
});

test.each(['__proto__', 'constructor', 'prototype'])(
  'checkScenarios refuses the goal and the name "%s" (the scripted planner keys scripts by goal in an object)',
  (key) => {
    const [s] = loadScenarioFile(write('k.json', JSON.stringify(good)));
    expect(() => checkScenarios([{ scenario: { ...s!, goal: key }, source: 'g.json' }], ['check_inventory'])).toThrow(
      new ScenarioFileError(
        'g.json',
        'goal',
        `"${key}" cannot be a goal (the scripted planner keys scripts by goal in an object)`,
      ),
    );
    expect(() => checkScenarios([{ scenario: { ...s!, name: key }, source: 'n.json' }], ['check_inventory'])).toThrow(
      `n.json: name: "${key}" cannot be a scenario name`,
    );
  },
);

test('checkScenarios refuses duplicate names and goals, and tools the demo does not have', () => {
  const [s] = loadScenarioFile(write('a.json', JSON.stringify(good)));
  const at = (source: string) => ({ scenario: s!, source });
  expect(() => checkScenarios([at('a.json'), at('b.json')], ['check_inventory'])).toThrow(
    'b.json: name: another scenario is named "mine"',
  );
  expect(() => checkScenarios([at('a.json'), { scenario: { ...s!, name: 'other' }, source: 'c.json' }], ['x'])).toThrow(
    'c.json: goal: another scenario has the same goal',
  );
  expect(() =>
    checkScenarios([{ scenario: { ...s!, tools: ['nope'] }, source: 'd.json' }], ['check_inventory']),
  ).toThrow('d.json: tools[0]: no tool named "nope" (tools: check_inventory)');
});

test('placeholders are replaced in every string, JSON-escaped', () => {
  expect(
    withPlaceholders({ a: ['{{files}}/x', 'y{{outside}}'], n: 1 }, { files: '/tmp/a"b', outside: 'C:\\o' }),
  ).toEqual({
    a: ['/tmp/a"b/x', 'yC:\\o'],
    n: 1,
  });
});

test('every built-in scenario file is valid', () => {
  expect(builtInScenarios().length).toBeGreaterThanOrEqual(9);
});

test('expect.actions names only actions the router records ("ok", a recovery action or a terminal state)', () => {
  const path = write(
    'actions.json',
    JSON.stringify({ ...good, expect: { status: 'submitted', actions: ['ok', 'retry_harder'] } }),
  );
  expect(refused(path)).toMatch(
    /actions\.json: expect\.actions\[1\]: Invalid option: expected one of "ok"\|"repair"\|/,
  );
  expect(
    loadScenarioFile(
      write(
        'actions-ok.json',
        JSON.stringify({ ...good, expect: { status: 'submitted', actions: ['ok', 'reconcile', 'fed_back'] } }),
      ),
    ),
  ).toHaveLength(1);
});
