/**
 * Field issues from hostile input (recovery/classify/zod.ts and its helpers): forged zod issues whose `code`,
 * `expected` or `format` name an Object.prototype member, JSON Schemas (e.g. from a remote MCP server) with such a
 * `format`. Exact values only.
 */
import { classifyZodError, fieldIssuesFromZod } from '../../recovery/classify';
import { describeSchema } from '../../recovery/classify/json-schema-words';
import { ctxOf } from './classify-helpers';

const forged = (issues: unknown[]) => ({ name: 'ZodError', issues });
const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

describe('prototype member names are not table entries', () => {
  it.each(PROTO_NAMES)('a forged issue with code %s is worded by its message, never throws', (code) => {
    expect(fieldIssuesFromZod(forged([{ code, path: ['a'], message: 'bad a' }]), { input: { a: 1 } })).toEqual([
      { path: ['a'], expected: 'bad a', received: '1', suggestion: 'change a to a bad a' },
    ]);
  });

  it.each(PROTO_NAMES)('invalid_type with expected %s is that word, never throws', (exp) => {
    expect(
      fieldIssuesFromZod(forged([{ code: 'invalid_type', expected: exp, path: ['a'] }]), { input: { a: 1 } })[0]
        ?.expected,
    ).toBe(exp);
  });

  it.each(PROTO_NAMES)('a JSON Schema format %s is an unknown format: "string"', (format) => {
    expect(describeSchema({ type: 'string', format })).toBe('string');
    const issues = fieldIssuesFromZod(forged([{ code: 'invalid_type', expected: 'string', path: ['a'] }]), {
      input: {},
      jsonSchema: { type: 'object', properties: { a: { type: 'string', format } } },
    });
    expect(issues).toEqual([{ path: ['a'], expected: 'string', received: 'missing', suggestion: 'add a (string)' }]);
  });

  it.each(PROTO_NAMES)('a zod issue format %s is "<format> string"', (format) => {
    expect(
      fieldIssuesFromZod(forged([{ code: 'invalid_format', format, path: ['a'] }]), { input: { a: 'x' } }),
    ).toEqual([
      { path: ['a'], expected: `${format} string`, received: '"x"', suggestion: `change a to a ${format} string` },
    ]);
  });

  it('classifyZodError on a forged __proto__ issue is a valid invalid_arguments failure', () => {
    const f = classifyZodError(forged([{ code: '__proto__', path: ['a'], message: 'bad a' }]), ctxOf(), {
      input: { a: 1 },
    });
    expect([f.class, f.issues]).toEqual([
      'invalid_arguments',
      [{ path: ['a'], expected: 'bad a', received: '1', suggestion: 'change a to a bad a' }],
    ]);
  });
});

describe('a number path segment that is no array index becomes the key it names', () => {
  // Found by classify.property (seed 1653084346): `path: [Infinity]` gave `path: [null]` on the wire and a field
  // issue `fieldIssueSchema` refuses, so a thrown ZodError fell to unrecoverable/tool_bug. The whole kind: any
  // number that is not a non-negative safe integer.
  const odd = [Infinity, -Infinity, NaN, -1, 1.5, 2 ** 60];

  it.each(odd)('fieldIssuesFromZod: path [%p] is the string key', (seg) => {
    expect(fieldIssuesFromZod(forged([{ path: [seg] }]), { input: 0, schema: {} })[0]?.path).toEqual([String(seg)]);
  });

  it('an index stays a number; -0 is index 0', () => {
    const out = fieldIssuesFromZod(forged([{ code: 'invalid_type', expected: 'string', path: ['a', 3, -0] }]), {});
    expect(out[0]?.path).toEqual(['a', 3, 0]);
  });

  it('a thrown ZodError with such segments stays invalid_arguments/schema, every segment a string', () => {
    const f = classifyZodError(forged([{ code: 'invalid_type', path: [Infinity, NaN, 1.5] }]), ctxOf(), {});
    expect([f.class, f.reason, f.issues?.[0]?.path]).toEqual([
      'invalid_arguments',
      'schema',
      ['Infinity', 'NaN', '1.5'],
    ]);
  });
});
