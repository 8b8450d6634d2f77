/**
 * The one error model (recovery/recovery-error.ts, docs/DESIGN.md "Errors"): every class's code and name, the
 * brand guard across V8 realms (node:vm contexts, as Temporal's workflow sandbox is one), codes unique library-wide.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { CredentialRefreshFailed, CredentialUnavailable, UnknownCredential } from '../../activities/credentials';
import { ToolDefinitionError } from '../../activities/define-tool';
import { HttpOutcomeError, ToolHttpRequestError } from '../../activities/http';
import { ApprovalNeededError } from '../../activities/interop/adopt';
import { isMcpCallError, McpCallError } from '../../activities/mcp/call-error';
import { McpReconnectError } from '../../activities/mcp/connection';
import { McpAdapterError } from '../../activities/mcp/errors';
import { ModelTimeoutError, PlannerConfigError } from '../../activities/planners/openai';
import { PlannerOutputError } from '../../activities/planners/planner';
import { ScriptedPolicyError } from '../../activities/planners/scripted';
import { ConfigError } from '../../config/load';
import { ScenarioFileError } from '../../examples/agent-demo/scenario';
import { CalendarServiceError } from '../../examples/calendar-service';
import { ApprovalError } from '../../operator/approvals';
import { ReviewError } from '../../operator/reviews';
import { RecoveryMetricsOptionsError } from '../../plugin/metrics';
import { RecoveryPluginOptionsError, SearchAttributesError } from '../../plugin/recovery-plugin';
import { ClassifyError } from '../../recovery/classify/errors';
import { isRecoveryInputError, RecoveryInputError } from '../../recovery/errors';
import { RedactionInputError } from '../../recovery/redact';
import { isRecoveryError, RECOVERY_ERROR_BRAND, RecoveryError } from '../../recovery/recovery-error';
import { TemporalCliNotFoundError } from '../../server/temporal-cli';
import type { ToolFailure } from '../../recovery/failure';

/** One instance of every class, its expected name and code. */
const cases: [RecoveryError, string, string][] = [
  [new RecoveryInputError('invalid_state', 'm'), 'RecoveryInputError', 'invalid_state'],
  [new ClassifyError('not_a_failure', 'm'), 'ClassifyError', 'not_a_failure'],
  [new RedactionInputError('number'), 'RedactionInputError', 'redact_input_not_string'],
  [new TemporalCliNotFoundError('m'), 'TemporalCliNotFoundError', 'temporal_cli_not_found'],
  [new ConfigError('f.json', undefined, ['p']), 'ConfigError', 'invalid_config'],
  [new ApprovalError('m'), 'ApprovalError', 'approval_failed'],
  [new ReviewError('rejected', 'm', 'op-1'), 'ReviewError', 'rejected'],
  [new CalendarServiceError('invalid_slot', 'm'), 'CalendarServiceError', 'invalid_slot'],
  [new ScenarioFileError('s.json', 'goal', 'm'), 'ScenarioFileError', 'invalid_scenario_file'],
  [new RecoveryMetricsOptionsError('m'), 'RecoveryMetricsOptionsError', 'invalid_metrics_options'],
  [new RecoveryPluginOptionsError('m'), 'RecoveryPluginOptionsError', 'invalid_plugin_options'],
  [new SearchAttributesError('default', ['RecoveryTool']), 'SearchAttributesError', 'search_attributes_missing'],
  [new ApprovalNeededError('book_slot'), 'ApprovalNeededError', 'approval_needed'],
  [new HttpOutcomeError({ kind: 'http', status: 503, headers: {} }), 'HttpOutcomeError', 'http_outcome'],
  [new ToolHttpRequestError('invalid_http_request', 'm'), 'ToolHttpRequestError', 'invalid_http_request'],
  [new PlannerConfigError('missing_model', 'm'), 'PlannerConfigError', 'missing_model'],
  // Named as AbortSignal.timeout()'s error on purpose, so classify reads it as a timeout.
  [new ModelTimeoutError(1_000, undefined), 'TimeoutError', 'model_timeout'],
  [new ScriptedPolicyError('unknown_goal', 'm'), 'ScriptedPolicyError', 'unknown_goal'],
  [new PlannerOutputError('no choices'), 'PlannerOutputError', 'planner_invalid_decision'],
  [new ToolDefinitionError('t', 'm'), 'ToolDefinitionError', 'invalid_tool_definition'],
  [new McpReconnectError(new Error('refused'), undefined), 'McpReconnectError', 'mcp_reconnect_failed'],
  [new McpAdapterError('closed', 'm'), 'McpAdapterError', 'closed'],
  [McpCallError.fromThrown('read_file', new Error('EPIPE')), 'McpCallError', 'mcp_call_failed'],
  [new CredentialRefreshFailed('crm', new Error('x')), 'CredentialRefreshFailed', 'credential_refresh_failed'],
  [
    new CredentialUnavailable('crm', { reason: 'timeout' } as ToolFailure, undefined),
    'CredentialUnavailable',
    'credential_unavailable',
  ],
  [new UnknownCredential('crm'), 'UnknownCredential', 'unknown_credential'],
];
const classes = cases.map(([e]) => e.constructor as typeof RecoveryError);

describe('every error class is a RecoveryError with its code and name', () => {
  test.each(cases.map(([e, name, code]) => [name, code, e] as const))('%s: code %s', (name, code, e) => {
    expect([e.name, e.code, e instanceof RecoveryError, e instanceof Error, isRecoveryError(e)]).toEqual([
      name,
      code,
      true,
      true,
      true,
    ]);
    expect(isRecoveryError(e, code)).toBe(true);
    expect(isRecoveryError(e, 'some_other_code')).toBe(false);
    const own = e.constructor as typeof RecoveryError;
    expect(own.is(e)).toBe(true);
    expect(own.codes).toContain(code);
    // Every other class refuses it: its codes are not this one's.
    expect(classes.filter((c) => c !== own && c.is(e)).map((c) => c.name)).toEqual([]);
  });

  test('codes are unique across classes, so a code names its class', () => {
    const all = classes.flatMap((c) => [...(c.codes ?? [])]);
    expect(all.length).toBeGreaterThanOrEqual(cases.length);
    expect(all.filter((c, i) => all.indexOf(c) !== i)).toEqual([]);
    for (const c of all) expect(c).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  test('RecoveryError.is accepts any RecoveryError; plain errors, look-alikes and primitives are refused', () => {
    expect(RecoveryError.is(new ConfigError('f', undefined, []))).toBe(true);
    const lookalike = Object.assign(new Error('m'), { name: 'ConfigError', code: 'invalid_config' });
    for (const v of [lookalike, new Error('m'), null, undefined, 'invalid_config', { code: 'invalid_config' }]) {
      expect([isRecoveryError(v), RecoveryError.is(v), ConfigError.is(v)]).toEqual([false, false, false]);
    }
    // The brand alone is not enough: `code` must be a string.
    expect(isRecoveryError({ [RECOVERY_ERROR_BRAND]: true, code: 7 })).toBe(false);
  });

  test('a cause is kept when given and absent otherwise', () => {
    const cause = new Error('root');
    expect(new RecoveryInputError('invalid_input', 'm', { cause }).cause).toBe(cause);
    expect('cause' in new RecoveryInputError('invalid_input', 'm')).toBe(false);
    expect(new ModelTimeoutError(5, cause).cause).toBe(cause);
  });
});

/**
 * Loads recovery/<file>.ts (or `../activities/…`) into a new V8 context, as a CommonJS module transpiled by TypeScript; `modules` answer
 * its relative imports. The classes it defines are that realm's, not this one's.
 */
function loadInRealm(context: object, file: string, modules: Record<string, unknown> = {}): Record<string, unknown> {
  const source = readFileSync(join(__dirname, '../../recovery', file), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const exports: Record<string, unknown> = {};
  const require = (id: string) => {
    if (id in modules) return modules[id];
    throw new Error(`unexpected import ${id}`);
  };
  runInNewContext(`(function (exports, require) {${outputText}\n})`, context)(exports, require);
  return exports;
}

describe('the guard works across V8 realms, where instanceof fails', () => {
  const realm = { console };
  const base = loadInRealm(realm, 'recovery-error.ts');
  const errors = loadInRealm(realm, 'errors.ts', { './recovery-error': base });
  const Foreign = errors.RecoveryInputError as new (code: string, message: string) => Error & { code: string };
  const foreign = new Foreign('limit_exceeded', 'too deep');

  test('an error made in another context is not instanceof this realm’s classes, but is recognised', () => {
    expect([foreign instanceof Error, foreign instanceof RecoveryError, foreign instanceof RecoveryInputError]).toEqual(
      [false, false, false],
    );
    expect(Object.getPrototypeOf(Object.getPrototypeOf(Object.getPrototypeOf(foreign))).constructor.name).toBe('Error');
    expect([isRecoveryError(foreign), isRecoveryError(foreign, 'limit_exceeded'), RecoveryError.is(foreign)]).toEqual([
      true,
      true,
      true,
    ]);
    expect([isRecoveryInputError(foreign), RecoveryInputError.is(foreign), foreign.code, foreign.name]).toEqual([
      true,
      true,
      'limit_exceeded',
      'RecoveryInputError',
    ]);
    expect([ClassifyError.is(foreign), ClassifyError.is(foreign)]).toEqual([false, false]);
  });

  test('and the other way round: the other realm’s guard recognises this realm’s errors', () => {
    const guard = base.isRecoveryError as typeof isRecoveryError;
    const foreignIsInput = errors.isRecoveryInputError as typeof isRecoveryInputError;
    const local = new RecoveryInputError('not_json', 'm');
    expect([guard(local), guard(local, 'not_json'), foreignIsInput(local)]).toEqual([true, true, true]);
    expect(foreignIsInput(new ClassifyError('invalid_outcome', 'm'))).toBe(false);
  });

  test('an McpCallError made in another realm is recognised by McpCallError.is and isMcpCallError', () => {
    const Foreign = loadInRealm(realm, '../activities/mcp/call-error.ts', {
      '@modelcontextprotocol/sdk/client/auth.js': { UnauthorizedError: class {} },
      '@modelcontextprotocol/sdk/client/streamableHttp.js': { StreamableHTTPError: class {} },
      '@modelcontextprotocol/sdk/types.js': { McpError: class {} },
      './result-signals': jest.requireActual('../../activities/mcp/result-signals'),
      '../../recovery/recovery-error': base,
      './errors': { MCP_RECONNECT_FAILED: 'mcp_reconnect_failed' },
    }).McpCallError as typeof McpCallError;
    const text = 'MCP error -32602: Invalid arguments';
    const e = Foreign.fromResult('read_file', { content: [{ type: 'text', text }], isError: true });
    expect([e instanceof Error, e instanceof RecoveryError, e instanceof McpCallError]).toEqual([false, false, false]);
    expect([
      McpCallError.is(e),
      isMcpCallError(e),
      isRecoveryError(e, 'mcp_call_failed'),
      McpAdapterError.is(e),
    ]).toEqual([true, true, true, false]);
    expect([e.name, e.code, e.rpcCode, e.source, e.detail]).toEqual([
      'McpCallError',
      'mcp_call_failed',
      -32602,
      'result',
      'Invalid arguments',
    ]);
    // The other realm's guard recognises this realm's error; a look-alike without the brand is refused.
    expect((base.isRecoveryError as typeof isRecoveryError)(McpCallError.fromResult('t', {}), 'mcp_call_failed')).toBe(
      true,
    );
    const lookalike = Object.assign(new Error('m'), { name: 'McpCallError', source: 'result', detail: 'd' });
    expect([isMcpCallError(lookalike), McpCallError.is(lookalike)]).toEqual([false, false]);
  });

  test('a plain object branded in another realm with Symbol.for is recognised too (the registry is shared)', () => {
    const branded = runInNewContext(
      `({ [Symbol.for('recovery-router.error')]: true, code: 'invalid_context', name: 'ClassifyError' })`,
    ) as unknown;
    expect([isRecoveryError(branded), ClassifyError.is(branded), isRecoveryInputError(branded)]).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe('the guards are total on hostile values (a tool may throw anything)', () => {
  const BRAND = Symbol.for('recovery-router.error');
  const hostile: [string, unknown][] = [
    [
      'a Proxy whose every read throws',
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('trap');
          },
        },
      ),
    ],
    [
      'a brand getter that throws',
      {
        get [BRAND]() {
          throw new Error('brand');
        },
        code: 'mcp_call_failed',
      },
    ],
    [
      'a code getter that throws',
      {
        [BRAND]: true,
        get code() {
          throw new Error('code');
        },
      },
    ],
    [
      'a revoked Proxy',
      (() => {
        const p = Proxy.revocable({}, {});
        p.revoke();
        return p.proxy;
      })(),
    ],
  ];
  it.each(hostile)('%s is no RecoveryError, McpCallError or ConfigError', (_label, value) => {
    expect([
      isRecoveryError(value),
      RecoveryError.is(value),
      isMcpCallError(value),
      McpCallError.is(value),
      ConfigError.is(value),
    ]).toEqual([false, false, false, false, false]);
  });
});
