/**
 * Unit tests of zod argument errors → field issues (recovery/classify/zod.ts): no workers, no servers.
 * Two repair scenarios (docs/DESIGN.md, "Routes": field-level feedback with a suggestion, never one generic
 * message): an invoice with several wrong fields, and a tap whose two coordinates arrive packed into one string.
 */
import { z } from 'zod';
import { classify, classifyZodError, ClassifyError, fieldIssuesFromZod } from '../../recovery/classify';
import { describeSchema } from '../../recovery/classify/json-schema-words';
import { MAX_ZOD_FIELD_ISSUES } from '../../recovery/classify/zod';
import { schemaAt } from '../../recovery/classify/json-schema';
import { fieldIssueSchema, MAX_RECEIVED_CHARS, toolFailureSchema } from '../../recovery/failure';
import { ctxOf } from './classify-helpers';

const fail = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error('expected the input to fail');
  return r.error;
};

describe('classifyZodError: invoice with several wrong fields (create_invoice; docs/DESIGN.md, "Routes")', () => {
  const createInvoice = z
    .object({
      customerId: z.string().regex(/^cus_/),
      amountCents: z.number().int().positive(),
      currency: z.enum(['usd', 'eur']),
      dueDate: z.iso.date(),
    })
    .strict();
  const ctx = ctxOf({ tool: 'create_invoice', effect: 'write' });
  const call1 = { customerId: '42', amount: '12.50', currency: 'USD' };

  const expectedIssues = [
    {
      path: ['customerId'],
      expected: 'string matching ^cus_',
      received: '"42"',
      suggestion: 'use a value that starts with cus_',
    },
    {
      path: ['amountCents'],
      expected: 'positive integer',
      received: 'missing',
      suggestion: 'rename amount to amountCents (positive integer)',
    },
    { path: ['currency'], expected: 'one of usd|eur', received: '"USD"', suggestion: "use lowercase 'usd'" },
    { path: ['dueDate'], expected: 'ISO date', received: 'missing', suggestion: 'add dueDate (ISO date, YYYY-MM-DD)' },
    {
      path: ['amount'],
      expected: 'a known key (customerId|amountCents|currency|dueDate)',
      received: '"12.50"',
      suggestion: 'did you mean amountCents?',
    },
  ];

  it('classifyZodError: invoice call 1 → invalid_arguments/schema in preflight with the five field issues, never one generic message', () => {
    const f = classifyZodError(fail(createInvoice, call1), ctx, { input: call1, schema: createInvoice });
    expect(f).toEqual({
      tool: 'create_invoice',
      callId: 'call-1',
      class: 'invalid_arguments',
      reason: 'schema',
      phase: 'preflight',
      retryable: false,
      replaySafe: true,
      publicMessage:
        'create_invoice: 5 invalid arguments; fix them and call again: customerId expected string matching ^cus_, received "42"; amountCents is missing (expected positive integer); currency expected one of usd|eur, received "USD"; dueDate is missing (expected ISO date); amount is not a known key.',
      diagnosticRef: 'diag-1',
      issues: expectedIssues,
    });
    expect(toolFailureSchema().safeParse(f).success).toBe(true);
  });

  it('classifyZodError: invoice call 2 (byte-identical) → the identical failure', () => {
    const a = classifyZodError(fail(createInvoice, call1), ctx, { input: call1, schema: createInvoice });
    const b = classifyZodError(fail(createInvoice, JSON.parse(JSON.stringify(call1))), ctx, {
      input: JSON.parse(JSON.stringify(call1)),
      schema: createInvoice,
    });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('classifyZodError: invoice call 3 passes the schema (nothing to classify)', () => {
    expect(
      createInvoice.safeParse({ customerId: 'cus_42', amountCents: 1250, currency: 'usd', dueDate: '2026-10-01' })
        .success,
    ).toBe(true);
  });

  it('classifyZodError: invoice with a schema that strips unknown keys still suggests "rename amount to amountCents"', () => {
    const stripping = createInvoice.strip();
    const issues = fieldIssuesFromZod(fail(stripping, call1), { input: call1, schema: stripping });
    expect(issues).toEqual(expectedIssues.slice(0, 4));
  });

  it('classifyZodError: invoice from the ZodError alone (no input, no schema) still gives one issue per field', () => {
    const f = classifyZodError(fail(createInvoice, call1), ctx);
    expect(f.issues).toEqual([
      {
        path: ['customerId'],
        expected: 'string matching ^cus_',
        received: 'not reported',
        suggestion: 'change customerId to a string matching ^cus_',
      },
      {
        path: ['amountCents'],
        expected: 'number',
        received: 'missing',
        suggestion: 'rename amount to amountCents (number)',
      },
      { path: ['currency'], expected: 'one of usd|eur', received: 'not reported', suggestion: 'use one of usd|eur' },
      { path: ['dueDate'], expected: 'string', received: 'missing', suggestion: 'add dueDate (string)' },
      { path: ['amount'], expected: 'no such key', received: 'not reported', suggestion: 'did you mean amountCents?' },
    ]);
  });
});

describe('classifyZodError: tap with packed coordinates (docs/DESIGN.md, "Routes")', () => {
  const tap = z.object({ x: z.number(), y: z.number() });
  const ctx = ctxOf({ tool: 'tap', effect: 'write' });

  it('classifyZodError: tap {"x":"861, 365"} → x is a string holding both numbers, y missing: "split into x and y"', () => {
    const input = { x: '861, 365' };
    const f = classifyZodError(fail(tap, input), ctx, { input, schema: tap });
    expect(f.class).toBe('invalid_arguments');
    expect(f.retryable).toBe(false);
    expect(f.issues).toEqual([
      { path: ['x'], expected: 'number', received: '"861, 365"', suggestion: 'split into x and y: x=861, y=365' },
      { path: ['y'], expected: 'number', received: 'missing', suggestion: 'split into x and y: x=861, y=365' },
    ]);
    expect(f.publicMessage).toBe(
      'tap: 2 invalid arguments; fix them and call again: x expected number, received "861, 365"; y is missing (expected number).',
    );
  });

  it('classifyZodError: tap without input or schema still says "split" only when it can see the value (here: types only)', () => {
    const f = classifyZodError(fail(tap, { x: '861, 365' }), ctx);
    expect(f.issues).toEqual([
      { path: ['x'], expected: 'number', received: 'a string', suggestion: 'change x to a number' },
      { path: ['y'], expected: 'number', received: 'missing', suggestion: 'add y (number)' },
    ]);
  });

  it('classifyZodError: tap call 2 {"x":861,"y":365} passes', () => {
    expect(tap.safeParse({ x: 861, y: 365 }).success).toBe(true);
  });
});

describe('fieldIssuesFromZod: expected, received and suggestions', () => {
  const issuesFor = (schema: z.ZodType, input: unknown) => fieldIssuesFromZod(fail(schema, input), { input, schema });

  it('fieldIssuesFromZod: a numeric string for a number → "send 12.5 as a number, without quotes"', () => {
    expect(issuesFor(z.object({ price: z.number() }), { price: '12.5' })).toEqual([
      { path: ['price'], expected: 'number', received: '"12.5"', suggestion: 'send 12.5 as a number, without quotes' },
    ]);
  });

  it('fieldIssuesFromZod: a decimal string for an integer → "send an integer without quotes"', () => {
    expect(issuesFor(z.object({ qty: z.number().int() }), { qty: '2.5' })[0]?.suggestion).toBe(
      'send an integer without quotes, not the string "2.5"',
    );
  });

  it('fieldIssuesFromZod: an enum value one letter off → "did you mean \'eur\'?"', () => {
    expect(issuesFor(z.object({ currency: z.enum(['usd', 'eur']) }), { currency: 'eru' })[0]?.suggestion).toBe(
      "did you mean 'eur'?",
    );
  });

  it('fieldIssuesFromZod: an upper-case enum in mixed case → "use uppercase \'USD\'"', () => {
    expect(issuesFor(z.object({ currency: z.enum(['USD', 'EUR']) }), { currency: 'usd' })[0]?.suggestion).toBe(
      "use uppercase 'USD'",
    );
  });

  it('fieldIssuesFromZod: a wrong date format → "use the format YYYY-MM-DD"', () => {
    expect(issuesFor(z.object({ dueDate: z.iso.date() }), { dueDate: '01/10/2026' })).toEqual([
      { path: ['dueDate'], expected: 'ISO date', received: '"01/10/2026"', suggestion: 'use the format YYYY-MM-DD' },
    ]);
  });

  it('fieldIssuesFromZod: nested array paths keep numbers: items[1].qty', () => {
    const schema = z.object({ items: z.array(z.object({ qty: z.number().int().min(1).max(10) })) });
    expect(issuesFor(schema, { items: [{ qty: 1 }, { qty: 11 }] })).toEqual([
      {
        path: ['items', 1, 'qty'],
        expected: 'integer between 1 and 10',
        received: '11',
        suggestion: 'change items[1].qty to an integer between 1 and 10',
      },
    ]);
  });

  it('fieldIssuesFromZod: an unknown key far from every known key → "remove <key>"', () => {
    expect(issuesFor(z.object({ a: z.string() }).strict(), { a: 'x', zzzzzz: 1 })).toEqual([
      { path: ['zzzzzz'], expected: 'a known key (a)', received: '1', suggestion: 'remove zzzzzz' },
    ]);
  });

  it('fieldIssuesFromZod: a secret-named field never shows its value', () => {
    expect(issuesFor(z.object({ password: z.string().min(12) }), { password: 'hunter2' })).toEqual([
      {
        path: ['password'],
        expected: 'string of at least 12 characters',
        received: '[redacted]',
        suggestion: 'change password to a string of at least 12 characters',
      },
    ]);
  });

  it('fieldIssuesFromZod: received is redacted and cut to MAX_RECEIVED_CHARS', () => {
    const long = `see https://internal.example.com/x ${'y'.repeat(300)}`;
    const [issue] = issuesFor(z.object({ note: z.string().max(10) }), { note: long });
    expect(issue?.received.length).toBe(MAX_RECEIVED_CHARS);
    expect(issue?.received.startsWith('"see [url] yyy')).toBe(true);
    expect(issue?.received.endsWith('…')).toBe(true);
  });

  it('fieldIssuesFromZod: a refinement keeps its own message as expected', () => {
    const schema = z.object({ day: z.string().refine((d) => d !== 'sunday', 'a weekday, not sunday') });
    expect(issuesFor(schema, { day: 'sunday' })[0]?.expected).toBe('a weekday, not sunday');
  });

  it('fieldIssuesFromZod: a union in words, a discriminated union by its tags', () => {
    expect(issuesFor(z.object({ id: z.union([z.string(), z.number()]) }), { id: true })[0]?.expected).toBe(
      'string or number',
    );
    const shape = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('circle'), r: z.number() }),
      z.object({ kind: z.literal('square'), side: z.number() }),
    ]);
    expect(issuesFor(z.object({ shape }), { shape: { kind: 'triangle' } })[0]).toMatchObject({
      path: ['shape', 'kind'],
      expected: 'one of circle|square',
    });
  });

  it(`fieldIssuesFromZod: at most MAX_ZOD_FIELD_ISSUES (${MAX_ZOD_FIELD_ISSUES}) issues, each valid`, () => {
    const shape: Record<string, z.ZodNumber> = {};
    for (let i = 0; i < 40; i++) shape[`f${i}`] = z.number();
    const issues = issuesFor(z.object(shape), {});
    expect(issues).toHaveLength(MAX_ZOD_FIELD_ISSUES);
    for (const i of issues) expect(fieldIssueSchema().safeParse(i).success).toBe(true);
  });
});

describe('describeSchema (over JSON Schema)', () => {
  const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

  it.each([
    [z.string().regex(/^cus_/), 'string matching ^cus_'],
    [z.number().int().positive(), 'positive integer'],
    [z.number().nonnegative(), 'non-negative number'],
    [z.number().int().min(1).max(10), 'integer between 1 and 10'],
    [z.number().gt(5), 'number > 5'],
    [z.number().int().positive().max(100), 'positive integer <= 100'],
    [z.enum(['usd', 'eur']), 'one of usd|eur'],
    [z.iso.date(), 'ISO date'],
    [z.iso.datetime(), 'ISO datetime'],
    [z.email(), 'email address'],
    [z.email().regex(/corp\.com$/), 'email address matching corp\\.com$'],
    [z.guid(), 'GUID'],
    [z.uuid(), 'UUID'],
    [z.templateLiteral(['a', z.number()]), 'string matching ^a-?\\d+(?:\\.\\d+)?$'],
    [z.string().min(1), 'non-empty string'],
    [z.string().min(3).max(5), 'string of 3–5 characters'],
    [z.string().length(4), 'string of exactly 4 characters'],
    [z.string().startsWith('cus_'), 'string starting with cus_'],
    [z.string().endsWith('.pdf'), 'string ending with .pdf'],
    [z.string().includes('a.b'), 'string containing a.b'],
    [z.array(z.string()).min(1), 'non-empty array of string'],
    [z.string().optional(), 'string'],
    [z.string().nullable(), 'string or null'],
    [z.literal('x'), 'exactly x'],
    [z.boolean(), 'boolean'],
    [z.tuple([z.string(), z.number()]), '[string, number]'],
    [z.union([z.literal('a'), z.literal('b')]), 'one of a|b'],
    [z.never(), 'no value (remove this key)'],
    [z.bigint(), 'any value'],
  ] as [z.ZodType, string][])('describeSchema: %# → "%s"', (schema, words) => {
    expect(describeSchema(json(schema))).toBe(words);
  });

  // A JSON Schema given directly, as an MCP server sends it: no zod schema behind it.
  it.each([
    [{ type: 'string', minLength: 1, maxLength: 80 }, 'string of 1–80 characters'],
    [{ type: 'string', format: 'date-time' }, 'ISO datetime'],
    [{ type: 'string', format: 'uri' }, 'URL'],
    [{ type: ['integer', 'null'], minimum: 1 }, 'integer >= 1 or null'],
    [{ anyOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'null' }] }, 'positive number or null'],
    [{ enum: ['a', 'b'] }, 'one of a|b'],
    [{ const: 3 }, 'exactly 3'],
    [
      { $ref: '#/$defs/id', $defs: { id: { type: 'string', pattern: '^ord-[0-9]+$' } } },
      'string matching ^ord-[0-9]+$',
    ],
    [{ $ref: '#' }, 'a valid value'],
    [{ $ref: '#/$defs/missing' }, 'a valid value'],
    [{ type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'boolean' } }, '[string, …boolean]'],
    [{ type: 'object', additionalProperties: { type: 'number' } }, 'object'],
    [false, 'no value (remove this key)'],
    [{ description: 'anything' }, 'any value'],
    [undefined, 'a valid value'],
  ] as [unknown, string][])('describeSchema of a JSON Schema given directly: %# → "%s"', (schema, words) => {
    expect(describeSchema(schema)).toBe(words);
  });

  it('describeSchema / schemaAt: a schema whose every read throws reads as nothing, never throws', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom');
        },
        ownKeys: () => {
          throw new Error('boom');
        },
      },
    );
    expect(describeSchema(hostile)).toBe('any value');
    expect(schemaAt(hostile, ['a', 0])).toBeUndefined();
  });

  it('schemaAt: through $ref into $defs, nullable anyOf, prefixItems, additionalProperties and a merged union', () => {
    const Node: z.ZodType = z.lazy(() => z.object({ v: z.number().int().positive(), next: Node.optional() }));
    const schema = json(
      z.object({
        root: Node,
        note: z.object({ due: z.iso.date() }).nullable(),
        point: z.tuple([z.number(), z.string().min(2)]),
        tags: z.record(z.string(), z.boolean()),
        shape: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('circle'), r: z.number() }),
          z.object({ kind: z.literal('square'), side: z.number() }),
        ]),
      }),
    );
    const words = (path: (string | number)[]) => describeSchema(schemaAt(schema, path), schema);
    expect(words(['root', 'next', 'next', 'v'])).toBe('positive integer');
    expect(words(['note', 'due'])).toBe('ISO date');
    expect(words(['point', 1])).toBe('string of at least 2 characters');
    expect(words(['tags', 'anything'])).toBe('boolean');
    expect(words(['shape', 'kind'])).toBe('one of circle|square');
    expect(words(['shape', 'side'])).toBe('number');
    expect(schemaAt(schema, ['point', 2])).toBeUndefined();
    expect(schemaAt(schema, ['nope'])).toBeUndefined();
  });
});

describe('fieldIssuesFromZod: the JSON Schema', () => {
  it('fieldIssuesFromZod: a record value, a nullable object, a tuple item and a $ref through the JSON Schema', () => {
    const Node: z.ZodType = z.lazy(() => z.object({ v: z.number().int().positive(), next: Node.optional() }));
    const schema = z.object({
      tags: z.record(z.string(), z.number().int().positive()),
      note: z.object({ due: z.iso.date() }).nullable(),
      point: z.tuple([z.number(), z.string().min(2)]),
      root: Node,
    });
    const input = { tags: { a: 'x' }, note: { due: '01/10/2026' }, point: [1, 'a'], root: { v: 1, next: { v: 'x' } } };
    expect(fieldIssuesFromZod(fail(schema, input), { input, schema })).toEqual([
      {
        path: ['tags', 'a'],
        expected: 'positive integer',
        received: '"x"',
        suggestion: 'change tags.a to a positive integer',
      },
      {
        path: ['note', 'due'],
        expected: 'ISO date',
        received: '"01/10/2026"',
        suggestion: 'use the format YYYY-MM-DD',
      },
      {
        path: ['point', 1],
        expected: 'string of at least 2 characters',
        received: '"a"',
        suggestion: 'change point[1] to a string of at least 2 characters',
      },
      {
        path: ['root', 'next', 'v'],
        expected: 'positive integer',
        received: '"x"',
        suggestion: 'change root.next.v to a positive integer',
      },
    ]);
  });

  it('fieldIssuesFromZod: a discriminated union with an unknown tag → the tags in words', () => {
    const shape = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('circle'), r: z.number() }),
      z.object({ kind: z.literal('square'), side: z.number() }),
    ]);
    const schema = z.object({ shape });
    const input = { shape: { kind: 'triangle' } };
    expect(fieldIssuesFromZod(fail(schema, input), { input, schema })).toEqual([
      {
        path: ['shape', 'kind'],
        expected: 'one of circle|square',
        received: '"triangle"',
        suggestion: 'use one of circle|square',
      },
    ]);
  });

  it('fieldIssuesFromZod: a JSON Schema given directly (an MCP tool’s) gives expected in full and the known keys', () => {
    const jsonSchema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        count: { type: 'integer', minimum: 1, maximum: 50 },
        since: { type: 'string', format: 'date' },
      },
      required: ['email', 'count', 'since'],
      additionalProperties: false,
    };
    // What the MCP adapter checks (activities/mcp/json-schema.ts): types, required keys, no other keys.
    const checked = z.strictObject({ email: z.string(), count: z.int(), since: z.string() });
    const input = { email: 7, counts: 3 };
    expect(fieldIssuesFromZod(fail(checked, input), { input, jsonSchema })).toEqual([
      { path: ['email'], expected: 'email address', received: '7', suggestion: 'change email to an email address' },
      {
        path: ['count'],
        expected: 'integer between 1 and 50',
        received: 'missing',
        suggestion: 'rename counts to count (integer between 1 and 50)',
      },
      { path: ['since'], expected: 'ISO date', received: 'missing', suggestion: 'add since (ISO date, YYYY-MM-DD)' },
      {
        path: ['counts'],
        expected: 'a known key (email|count|since)',
        received: '3',
        suggestion: 'did you mean count?',
      },
    ]);
  });

  it('fieldIssuesFromZod: a zod schema is read through its JSON Schema (input side of a transform)', () => {
    const schema = z.object({ n: z.number().int().positive() }).transform((o) => o.n);
    const input = { n: 'x' };
    expect(fieldIssuesFromZod(fail(schema, input), { input, schema })).toEqual([
      { path: ['n'], expected: 'positive integer', received: '"x"', suggestion: 'change n to a positive integer' },
    ]);
  });

  it('fieldIssuesFromZod: a `schema` without a JSON form (not a zod schema) falls back to the issues alone', () => {
    const input = { n: 'x' };
    const error = fail(z.object({ n: z.number().int().positive() }), input);
    expect(fieldIssuesFromZod(error, { input, schema: { not: 'a zod schema' } })).toEqual([
      { path: ['n'], expected: 'number', received: '"x"', suggestion: 'change n to a number' },
    ]);
  });
});

describe('classifyZodError: contract', () => {
  it('classifyZodError: something that is not a ZodError → ClassifyError invalid_outcome', () => {
    expect(() => classifyZodError(new Error('x'), ctxOf())).toThrow(ClassifyError);
  });

  it('classifyZodError: a bad ctx → ClassifyError invalid_context naming the field', () => {
    expect(() => classifyZodError(fail(z.string(), 1), ctxOf({ tool: '' }))).toThrow(
      'CallContext.tool: Too small: expected string to have >=1 characters',
    );
  });

  it('classify: a ZodError thrown by the tool before sending → invalid_arguments/schema in preflight', () => {
    const f = classify({ kind: 'thrown', error: fail(z.object({ n: z.number() }), {}) }, ctxOf());
    expect(f).toMatchObject({
      class: 'invalid_arguments',
      reason: 'schema',
      phase: 'preflight',
      retryable: false,
      replaySafe: true,
    });
    expect(f.issues).toEqual([{ path: ['n'], expected: 'number', received: 'missing', suggestion: 'add n (number)' }]);
  });

  it('classify: a ZodError thrown after the request was sent → invalid_result/schema_violation in postcheck', () => {
    const f = classify(
      { kind: 'thrown', error: fail(z.object({ docs: z.array(z.string()) }), {}), requestSent: true },
      ctxOf(),
    );
    expect(f).toMatchObject({
      class: 'invalid_result',
      reason: 'schema_violation',
      phase: 'postcheck',
      retryable: false,
      replaySafe: true,
    });
  });
});

test('fieldIssuesFromZod: a forged path segment String() cannot convert ({ toString: false }) is named, not thrown', () => {
  const out = fieldIssuesFromZod({ name: 'ZodError', issues: [{ path: [{ toString: false }] }] } as never);
  expect(out).toHaveLength(1);
  expect(out[0]?.path).toEqual(['[object]']);
});
