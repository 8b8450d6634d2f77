/**
 * The PALADIN key table of the recovery eval (bench/eval/paladin/keys.ts): it covers the catalogue's 58 keys
 * exactly, each key's fault shape is built (or provoked for real, on loopback) by bench/eval/paladin/faults.ts, and
 * the router's classifier routes each shape to the key's expected action. docs/EVAL.md prints the same table.
 * No workers, no Temporal server.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GaxiosError } from 'gaxios';
import { IO, THROWN, type IoEnv } from '../../bench/eval/paladin/faults';
import {
  debatableKeys,
  PALADIN_CATEGORIES,
  PALADIN_KEYS,
  paladinKey,
  type PaladinKey,
} from '../../bench/eval/paladin/keys';
import { RecordArgs, RecordShape, worldReadTools } from '../../bench/eval/tools';
import { startWorldService, type WorldService } from '../../bench/eval/world-service';
import { classify, classifyInvalidResult, classifyZodError, type CallContext } from '../../recovery/classify';
import { parseBody } from '../../recovery/classify/body';
import type { ToolFailure } from '../../recovery/failure';
import { routeFor } from '../../recovery/routes';

const DATA = join(__dirname, '..', '..', 'bench', 'eval', 'paladin', 'data');
const taxonomy = JSON.parse(readFileSync(join(DATA, 'toolscan_taxonomy_map.json'), 'utf8')) as Record<
  string,
  { errors: string[] }
>;
const dictionary = JSON.parse(readFileSync(join(DATA, 'recovery_dictionary.json'), 'utf8')) as Record<string, unknown>;

const ctxOf = (k: PaladinKey, more: Partial<CallContext> = {}): CallContext => ({
  tool: k.step === 'read' ? 'get_record' : 'save_summary',
  callId: 'call-1',
  effect: k.step === 'read' ? 'read' : 'write',
  deduplicates: false,
  approvalCanLift: k.key === '403',
  nowMs: Date.parse('2026-12-01T10:00:00Z'),
  diagnosticRef: 'diag-1',
  ...more,
});

let world: WorldService;
let io: IoEnv;
beforeAll(async () => {
  world = await startWorldService();
  io = {
    // Port 2: nothing listens there and listen(0) never hands it out (a freed ephemeral port can be taken).
    closedUrl: 'http://127.0.0.1:2/records',
    worldUrl: world.url,
    filesDir: mkdtempSync(join(tmpdir(), 'rr-paladin-')),
  };
});
afterAll(() => world.close());

/** What the router's classifier makes of a key's fault (the capability check and zod preflight included). */
async function failureOf(k: PaladinKey): Promise<ToolFailure | 'capability_missing'> {
  const inj = k.injection;
  const ctx = ctxOf(k);
  switch (inj.kind) {
    case 'http':
      return classify({ kind: 'http', status: inj.status, headers: inj.headers ?? {}, body: inj.body }, ctx);
    case 'result': {
      const received = inj.contentType === 'application/json' ? parseBody(inj.text) : inj.text;
      return classifyInvalidResult({ error: RecordShape.safeParse(received).error, received }, ctx);
    }
    case 'thrown':
      return classify({ kind: 'thrown', error: THROWN[k.key]!() }, ctx);
    case 'io': {
      const error = await IO[k.key]!(io).then(
        () => new Error('the operation did not fail'),
        (e: unknown) => e,
      );
      return classify({ kind: 'thrown', error }, ctx);
    }
    case 'gaxios': {
      const data = {
        error: { code: inj.status, message: 'refused', errors: [{ domain: 'usageLimits', reason: inj.reason }] },
      };
      const config = {
        url: new URL('https://www.googleapis.com/drive/v3/files'),
        method: 'GET',
        headers: new Headers(),
        responseType: 'json', // gaxios keeps `response.data` for JSON answers, as `request()` sets it
      };
      const response = { status: inj.status, statusText: 'Forbidden', data, headers: new Headers(), config } as never;
      return classify({ kind: 'thrown', error: new GaxiosError('refused', config as never, response) }, ctx);
    }
    case 'args': {
      const parsed = RecordArgs.safeParse(JSON.parse(JSON.stringify(inj.args).replaceAll('$record', 'R-1')));
      if (!parsed.success) return classifyZodError(parsed.error, ctx, { input: inj.args, schema: RecordArgs });
      return SERVER_SIDE[k.key]!(ctx);
    }
    case 'tool':
      return worldReadTools('http://127.0.0.1:1').some((t) => t.name === inj.name) ? fail(k) : 'capability_missing';
    case 'credential':
      return inj.mode === 'expired'
        ? classify(
            {
              kind: 'http',
              status: 401,
              headers: { 'www-authenticate': 'Bearer error="invalid_token", error_description="expired"' },
              body: { error: 'invalid_token' },
            },
            ctx,
          )
        : classify(
            { kind: 'thrown', error: new DOMException('The operation was aborted due to timeout', 'TimeoutError') },
            { ...ctx, tool: 'credential-provider' },
          );
  }
}

const fail = (k: PaladinKey): never => {
  throw new Error(`${k.key}: the injected tool name exists`);
};

/** Arguments the schema accepts and the server (or database) refuses: their answers. */
const SERVER_SIDE: Record<string, (ctx: CallContext) => ToolFailure> = {
  '400': (ctx) =>
    classify({ kind: 'http', status: 400, headers: {}, body: { error: { code: 400, message: 'Bad Request' } } }, ctx),
  IndexOutOfBoundsException: (ctx) =>
    classify(
      { kind: 'http', status: 422, headers: {}, body: { errors: [{ field: 'page', message: 'must be ≤ 1' }] } },
      ctx,
    ),
  DataError: (ctx) =>
    classify(
      {
        kind: 'thrown',
        error: Object.assign(new Error('invalid input syntax for type integer: "v2"'), {
          name: 'error',
          code: '22P02',
          severity: 'ERROR',
          routine: 'pg_strtoint32_safe',
          file: 'numutils.c',
        }),
      },
      { ...ctx, dialect: 'postgres' },
    ),
};

describe('the key table', () => {
  test('covers the 58 keys of the taxonomy exactly, in its order, each in its category', () => {
    const fromJson = PALADIN_CATEGORIES.flatMap((c) => taxonomy[c]!.errors.map((key) => [key, c]));
    expect(PALADIN_KEYS.map((k) => [k.key, k.category])).toEqual(fromJson);
    expect(PALADIN_KEYS).toHaveLength(58);
    expect(Object.keys(taxonomy)).toEqual([...PALADIN_CATEGORIES]);
  });

  test('every key has a recovery path in the dictionary', () => {
    for (const k of PALADIN_KEYS) expect(dictionary[k.key]).toHaveProperty('paths.success');
  });

  test('thrown and io keys have a fault maker, and no other key has one', () => {
    const needs = (kind: string) =>
      PALADIN_KEYS.filter((k) => k.injection.kind === kind)
        .map((k) => k.key)
        .sort();
    expect(Object.keys(THROWN).sort()).toEqual(needs('thrown'));
    expect(Object.keys(IO).sort()).toEqual(needs('io'));
  });

  test('19 keys need a person (hand-off) and 39 are recoverable; 18 are debatable, each with another route', () => {
    expect(PALADIN_KEYS.filter((k) => k.world === 'hand_off')).toHaveLength(19);
    expect(debatableKeys().map((k) => k.key)).toHaveLength(18);
    for (const k of debatableKeys()) expect(k.debatable!.otherAction).not.toBe(k.expectedAction);
    expect(() => paladinKey('Segfault')).toThrow('no PALADIN key "Segfault"');
  });

  test.each(PALADIN_KEYS.map((k) => [k.key, k.expectedAction, k] as const))(
    'PALADIN %s → %s',
    async (_key, expected, k) => {
      const f = await failureOf(k);
      expect(f === 'capability_missing' ? 'replan' : routeFor(f).action).toBe(expected);
    },
  );
});
