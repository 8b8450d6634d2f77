/**
 * Unit tests of declaring a tool (activities/define-tool.ts): no workers, no servers. Findings 21 and 22 of the
 * attack review (notes/attack-probes/STATUS.md): bad input is a ToolDefinitionError, and a message never echoes
 * more than MAX_ECHOED_CHARS characters of what it was given.
 */
import { z } from 'zod';
import {
  boundedEcho,
  defineTool,
  MAX_ECHOED_CHARS,
  ToolDefinitionError,
  toolCatalog,
} from '../../activities/define-tool';

const definition = (over: Record<string, unknown> = {}) =>
  ({
    name: 'check_inventory',
    description: 'Checks the stock of a SKU.',
    input: z.object({ sku: z.string() }),
    output: z.object({ inStock: z.boolean() }),
    effect: 'read',
    execute: async () => ({ inStock: true }),
    ...over,
  }) as never;

function definitionError(fn: () => unknown): ToolDefinitionError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ToolDefinitionError) return e;
    throw e;
  }
  throw new Error('expected a ToolDefinitionError, nothing was thrown');
}

describe('defineTool: a definition that is not an object (finding 21)', () => {
  test.each<[string, unknown, string]>([
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['a number', 42, 'number'],
    ['a string', 'check_inventory', 'string'],
    ['an array', [definition()], 'an array'],
    ['a function', () => definition(), 'function'],
  ])('defineTool(%s) → ToolDefinitionError, not a TypeError', (_label, value, kind) => {
    const e = definitionError(() => defineTool(value as never));
    expect([e.name, e.tool, e.message]).toEqual([
      'ToolDefinitionError',
      '(not an object)',
      `defineTool("(not an object)"): the definition must be an object { name, description, input, output, effect, execute }, got ${kind}`,
    ]);
  });
});

describe('defineTool: bad names are refused with a bounded message (finding 22)', () => {
  test('defineTool: a 1 MB name → the message quotes its first 64 characters and its length', () => {
    const e = definitionError(() => defineTool(definition({ name: 'x'.repeat(1_000_000) })));
    const shown = `${'x'.repeat(64)}…(1000000 chars)`;
    expect([e.tool, e.message]).toEqual([
      shown,
      `defineTool("${shown}"): \`name\` must be 1-64 characters of [a-zA-Z0-9_.-]: it is 1000000 characters long`,
    ]);
    expect(e.message.length).toBeLessThan(200);
  });

  test.each<[string, unknown, string, string]>([
    [
      'a missing name',
      undefined,
      '(unnamed)',
      '`name` must be a string of 1-64 characters of [a-zA-Z0-9_.-], got undefined',
    ],
    ['a numeric name', 7, '(unnamed)', '`name` must be a string of 1-64 characters of [a-zA-Z0-9_.-], got number'],
    ['an empty name', '', '', '`name` must be 1-64 characters of [a-zA-Z0-9_.-]: it is empty'],
    [
      'a 65-character name',
      'a'.repeat(65),
      `${'a'.repeat(64)}…(65 chars)`,
      '`name` must be 1-64 characters of [a-zA-Z0-9_.-]: it is 65 characters long',
    ],
    [
      'a full-width name',
      'ｂｏｏｋ',
      'ｂｏｏｋ',
      '`name` must be 1-64 characters of [a-zA-Z0-9_.-]: it has U+FF42 at index 0',
    ],
    [
      'a zero-width joiner in the name',
      'book\u200d',
      'book\u200d',
      '`name` must be 1-64 characters of [a-zA-Z0-9_.-]: it has U+200D at index 4',
    ],
    ['a space in the name', 'a b', 'a b', '`name` must be 1-64 characters of [a-zA-Z0-9_.-]: it has U+0020 at index 1'],
    ['an accented name', 'é', 'é', '`name` must be 1-64 characters of [a-zA-Z0-9_.-]: it has U+00E9 at index 0'],
  ])('defineTool: %s → ToolDefinitionError naming the rule', (_label, name, tool, rule) => {
    const e = definitionError(() => defineTool(definition({ name })));
    expect([e.tool, e.message]).toEqual([tool, `defineTool(${JSON.stringify(tool)}): ${rule}`]);
  });

  test('defineTool: a name checked first, so a bad name is reported even when input is also wrong', () => {
    const e = definitionError(() => defineTool(definition({ name: 'a b', input: 'not zod' })));
    expect(e.message).toBe(
      'defineTool("a b"): `name` must be 1-64 characters of [a-zA-Z0-9_.-]: it has U+0020 at index 1',
    );
  });

  test('defineTool: a name of exactly 64 characters is accepted', () => {
    expect(defineTool(definition({ name: 'n'.repeat(64) })).spec.name).toBe('n'.repeat(64));
  });

  test('defineTool: an Object.prototype member name ("constructor") is an ordinary name (routed safely, see test/temporal/hardening.test.ts)', () => {
    expect(defineTool(definition({ name: 'constructor' })).spec.name).toBe('constructor');
  });
});

describe('defineTool: other fields', () => {
  test.each<[string, Record<string, unknown>, string]>([
    [
      'input not a zod schema',
      { input: { sku: 'string' } },
      '`input` must be a zod 4 schema from the `zod` package recovery-router resolves (zod is a peer dependency: `npm ls zod` shows one copy)',
    ],
    [
      'output not a zod schema',
      { output: null },
      '`output` must be a zod 4 schema from the `zod` package recovery-router resolves (zod is a peer dependency: `npm ls zod` shows one copy)',
    ],
    ['no execute', { execute: undefined }, '`execute` must be a function'],
    ['timeouts 0', { timeouts: { startToCloseMs: 0 } }, 'startToCloseTimeoutMs: Too small: expected number to be >0'],
    [
      'timeouts 1.5',
      { timeouts: { startToCloseMs: 1.5 } },
      'startToCloseTimeoutMs: Invalid input: expected int, received number',
    ],
  ])('defineTool: %s → ToolDefinitionError', (_label, over, rule) => {
    expect(definitionError(() => defineTool(definition(over))).message).toBe(`defineTool("check_inventory"): ${rule}`);
  });

  test('toolCatalog: a name declared twice → ToolDefinitionError', () => {
    const t = defineTool(definition());
    expect(definitionError(() => toolCatalog([t, t])).message).toBe('defineTool("check_inventory"): declared twice');
  });
});

describe('boundedEcho', () => {
  test(`boundedEcho: at most ${MAX_ECHOED_CHARS} characters are kept, then the full length`, () => {
    expect(boundedEcho('short')).toBe('short');
    expect(boundedEcho('y'.repeat(64))).toBe('y'.repeat(64));
    expect(boundedEcho('y'.repeat(65))).toBe(`${'y'.repeat(64)}…(65 chars)`);
    expect(boundedEcho('abcdef', 3)).toBe('abc…(6 chars)');
  });
});
