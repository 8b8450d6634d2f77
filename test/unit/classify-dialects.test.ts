/**
 * Pure tests of the code tables and their readers (recovery/classify/protocols, recovery/classify/dialects): no
 * servers. Shapes the real-server tests (test/dialects) cannot provoke here are built as the libraries build them:
 * Prisma's error classes, postgres.js's PostgresError, node-redis's ErrorReply, Google's AIP-193 ErrorInfo, AWS's
 * modeled `$retryable`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolDefinitionError } from '../../activities/define-tool';
import { classify, dialects, type CallContext } from '../../recovery/classify';
import { KIND_RULES } from '../../recovery/classify/kinds';
import { LIBRARY_TABLES } from '../../recovery/classify/dialects/libraries';
import { parseCallContext } from '../../recovery/classify/context';
import { PROTOCOL_TABLES } from '../../recovery/classify/protocols/tables';
import { readCodes } from '../../recovery/classify/protocols';
import { AWS_ERRORS } from '../../recovery/classify/dialects/aws';
import { STRIPE_CLASSES, STRIPE_V2_TYPES } from '../../recovery/classify/dialects/stripe';
import { GRPC } from '../../recovery/classify/protocols/tables';
import { FailureReason, toolFailureSchema } from '../../recovery/failure';
import { routeFor } from '../../recovery/routes';
import { READ, WRITE, WRITE_DEDUP, ctxOf } from './classify-helpers';

const route = (error: unknown, ctx: CallContext = READ) => {
  const f = classify({ kind: 'thrown', error }, ctx);
  expect(toolFailureSchema().safeParse(f).success).toBe(true);
  return { class: f.class, reason: f.reason, action: routeFor(f).action, phase: f.phase, retryAfterMs: f.retryAfterMs };
};

describe('code tables', () => {
  test.each([...PROTOCOL_TABLES, ...LIBRARY_TABLES].map((t) => [`${t.id} (${t.label})`, t] as const))(
    '%s: names its source, every row a known kind, frozen',
    (_name, table) => {
      expect(table.source).toMatch(/\w{3,}/);
      expect(Object.isFrozen(table)).toBe(true);
      const rows = Object.values(table.rows);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(Object.keys(KIND_RULES)).toContain(row.kind);
        expect(Object.isFrozen(row)).toBe(true);
      }
    },
  );

  test.each(Object.entries({ AWS_ERRORS, STRIPE_CLASSES, STRIPE_V2_TYPES }))(
    '%s: every row names its source and a known kind, and is frozen',
    (_name, table) => {
      expect(Object.isFrozen(table)).toBe(true);
      for (const row of Object.values(table)) {
        expect(row.source).toMatch(/\w{3,}/);
        expect(Object.keys(KIND_RULES)).toContain(row.kind);
      }
    },
  );

  test('gRPC has one row per status code 0–16', () => {
    expect(Object.values(GRPC.rows).map((r) => r.name)).toEqual([
      'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS', 'PERMISSION_DENIED',
      'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED',
    ]); // prettier-ignore
  });

  test("AWS: every name of @smithy/service-error-classification's throttling list is a rate limit", () => {
    const throttling = ['BandwidthLimitExceeded', 'EC2ThrottledException', 'LimitExceededException', 'PriorRequestNotComplete', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'RequestThrottled', 'RequestThrottledException', 'SlowDown', 'ThrottledException', 'Throttling', 'ThrottlingException', 'TooManyRequestsException', 'TransactionInProgressException']; // prettier-ignore
    for (const name of throttling) expect([name, AWS_ERRORS[name]?.kind]).toEqual([name, 'rate_limited']);
  });

  test('every kind routes to an action, and the kind table uses the new reason `aborted`', () => {
    expect(Object.values(KIND_RULES).some((r) => r.reason === FailureReason.ABORTED)).toBe(true);
  });
});

describe('the core imports no client library', () => {
  const CLIENTS =
    /from '(?:pg|mysql2|better-sqlite3|@prisma\/|mongodb|ioredis|redis|@grpc\/|@aws-sdk\/|@smithy\/|stripe|gaxios|googleapis|openai|@anthropic-ai\/|axios)/;
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  test.each(files(join(__dirname, '..', '..', 'recovery')).map((f) => [f.replace(/^.*recovery\//, 'recovery/'), f]))(
    '%s',
    (_n, file) => {
      expect(readFileSync(file, 'utf8')).not.toMatch(CLIENTS);
    },
  );
});

describe('detection by shape, and by the declared dialect', () => {
  test('a bare { code: "23505" } is no PostgreSQL error by shape (its words alone speak), but is with dialect postgres', () => {
    const bare = Object.assign(new Error('duplicate'), { code: '23505' });
    expect(route(bare).class).toBe('semantic_rejection');
    expect(classify({ kind: 'thrown', error: bare }, ctxOf()).publicMessage).not.toContain('PostgreSQL');
    const silent = Object.assign(new Error('x'), { code: '23505' });
    expect(route(silent).class).toBe('unrecoverable');
    expect(route(bare, ctxOf({ dialect: 'postgres' }))).toMatchObject({
      class: 'semantic_rejection',
      reason: 'conflict',
      action: 'replan',
    });
  });

  test('postgres.js PostgresError (severity_local, constraint_name) → 23505 conflict with the constraint named', () => {
    const e = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      name: 'PostgresError', code: '23505', severity_local: 'ERROR', constraint_name: 'users_email_key', query: "INSERT … 'ann@x'",
    }); // prettier-ignore
    const f = classify({ kind: 'thrown', error: e }, WRITE);
    expect([f.class, f.code]).toEqual(['semantic_rejection', 'unique_violation']);
    expect(f.publicMessage).toContain('constraint users_email_key');
    expect(f.publicMessage).not.toContain('ann@x');
  });

  test('40003 statement_completion_unknown on a write → outcome_unknown → reconcile; on a read → retry', () => {
    const e = Object.assign(new Error('x'), { code: '40003', severity: 'ERROR' });
    expect(route(e, WRITE)).toMatchObject({ class: 'outcome_unknown', action: 'reconcile', phase: 'commit_unknown' });
    expect(route(e, READ)).toMatchObject({ class: 'transient', action: 'retry' });
  });

  test('a pg error wrapped by the tool (cause) is still read', () => {
    const e = new Error('could not save', {
      cause: Object.assign(new Error('deadlock detected'), { code: '40P01', severity: 'ERROR' }),
    });
    expect(route(e, WRITE)).toMatchObject({ class: 'transient', reason: 'aborted', action: 'retry' });
  });

  test.each([
    ['P2002', { target: ['email'] }, { class: 'semantic_rejection', reason: 'conflict', action: 'replan' }],
    ['P2025', {}, { class: 'semantic_rejection', reason: 'not_found', action: 'replan' }],
    ['P2034', {}, { class: 'transient', reason: 'aborted', action: 'retry' }],
    ['P1001', {}, { class: 'transient', reason: 'network', action: 'retry' }],
    ['P2011', { constraint: ['name'] }, { class: 'invalid_arguments', reason: 'schema', action: 'repair' }],
    ['P2021', {}, { class: 'unrecoverable', reason: 'tool_bug', action: 'escalate' }],
  ])('Prisma %s (PrismaClientKnownRequestError) → %o', (code, meta, expected) => {
    const e = Object.assign(new Error('prisma'), {
      name: 'PrismaClientKnownRequestError',
      code,
      meta,
      clientVersion: '6.0.0',
    });
    expect(route(e, WRITE)).toMatchObject(expected);
  });

  test('node-redis ErrorReply READONLY → transient → retry; "Socket closed unexpectedly" on a write → reconcile', () => {
    expect(
      route(
        Object.assign(new Error("READONLY You can't write against a read only replica."), { name: 'ErrorReply' }),
        WRITE,
      ),
    ).toMatchObject({ class: 'transient', action: 'retry' });
    expect(
      route(Object.assign(new Error('Socket closed unexpectedly'), { name: 'SocketClosedUnexpectedlyError' }), WRITE),
    ).toMatchObject({ class: 'outcome_unknown', action: 'reconcile' });
  });

  test('Google AIP-193 ErrorInfo reason RATE_LIMIT_EXCEEDED on a 429 → retry with the Retry-After', () => {
    const e = Object.assign(new Error('quota'), {
      name: 'GaxiosError',
      config: {},
      response: {
        status: 429,
        headers: { 'retry-after': '4' },
        data: {
          error: {
            code: 429,
            status: 'RESOURCE_EXHAUSTED',
            details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'RATE_LIMIT_EXCEEDED' }],
          },
        },
      },
    });
    expect(route(e)).toMatchObject({ class: 'transient', reason: 'rate_limited', action: 'retry', retryAfterMs: 4000 });
  });

  test('AWS: a name the tables do not list falls to the HTTP rules by status; a modeled $retryable is transient', () => {
    const aws = (name: string, status: number, more: object = {}) =>
      Object.assign(new Error('x'), { name, $fault: 'client', $metadata: { httpStatusCode: status }, ...more });
    expect(route(aws('SomethingNewException', 409), WRITE)).toMatchObject({
      class: 'semantic_rejection',
      reason: 'conflict',
    });
    expect(route(aws('ModeledBusy', 400, { $retryable: { throttling: true } }), WRITE)).toMatchObject({
      class: 'transient',
      reason: 'rate_limited',
      action: 'retry',
    });
    expect(route(aws('SyntaxError', 200), READ)).toMatchObject({
      class: 'invalid_result',
      action: 'reject',
      phase: 'postcheck',
    });
  });

  test('openai LengthFinishReasonError → invalid_result → reject', () => {
    expect(route(new Error('Could not parse response content as the length limit was reached'))).toMatchObject({
      class: 'invalid_result',
      action: 'reject',
    });
  });

  test('a 403 FORBIDDEN kind with approvalCanLift → request_approval', () => {
    const e = Object.assign(new Error('permission denied for table t'), { code: '42501', severity: 'ERROR' });
    expect(route(e, ctxOf({ approvalCanLift: true }))).toMatchObject({
      class: 'authorization',
      reason: 'approval_required',
      action: 'request_approval',
    });
  });

  test('gRPC DEADLINE_EXCEEDED on a deduplicated write → transient in commit_unknown → retry', () => {
    const e = Object.assign(new Error('4 DEADLINE_EXCEEDED'), {
      code: 4,
      details: 'Deadline exceeded',
      metadata: { get: () => [] },
    });
    expect(route(e, WRITE_DEDUP)).toMatchObject({
      class: 'transient',
      reason: 'timeout',
      action: 'retry',
      phase: 'commit_unknown',
    });
  });

  test('a reader that meets hostile getters never throws: the error falls through to the next rules', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); }, has: () => { throw new Error('boom'); } }); // prettier-ignore
    expect(readCodes(hostile)).toBeUndefined();
    expect(route(hostile).class).toBe('unrecoverable');
  });
});

describe('defineTool({ errors })', () => {
  const base = {
    name: 'db_tool',
    description: 'x',
    input: z.object({}),
    output: z.object({}),
    effect: 'read' as const,
    execute: async () => ({}),
  };
  test('a known dialect is accepted and kept', () => {
    expect(defineTool({ ...base, errors: 'postgres' }).errors).toBe('postgres');
  });
  test('an unknown dialect is a ToolDefinitionError naming the field and the choices', () => {
    const call = () => defineTool({ ...base, errors: 'postgre' as never });
    expect(call).toThrow(ToolDefinitionError);
    expect(call).toThrow(
      `defineTool("db_tool"): \`errors\` must be one of ${dialects()
        .map((d) => `'${d}'`)
        .join(', ')}; got "postgre"`,
    );
    expect(() => defineTool({ ...base, errors: 42 as never })).toThrow('got number');
  });
  test('CallContext.dialect is validated by classify', () => {
    expect(() => parseCallContext({ ...READ, dialect: 'oracle' })).toThrow(/^CallContext\.dialect: /);
  });
});
