/**
 * The shape checks of `RecoveryPlugin`'s options, run before anything is built, so a wrong value fails with its name
 * rather than deep inside an activity.
 */
import { approvalKeyBytes } from '../activities/approval-signature';
import { CredentialBroker } from '../activities/credentials';
import type { RecoveryPluginOptions } from './recovery-plugin';
import type { RecoveryTelemetry } from './telemetry';

/** A `RecoveryPlugin` option that cannot be used. */
export class RecoveryPluginOptionsError extends Error {
  override readonly name = 'RecoveryPluginOptionsError';
}

/**
 * Checks the options' shapes before anything is built, so a wrong value fails here with its name rather than deep
 * inside an activity (the attack review: `{ tools: [{ spec: 1 }] }` used to be accepted).
 * @throws RecoveryPluginOptionsError naming the option (`tools[i]`, `credentials.<id>`, `breaker.<field>`, `telemetry`).
 */
export function checkOptions(options: RecoveryPluginOptions): void {
  if (!isObject(options) || !Array.isArray(options.tools) || options.tools.length === 0) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `tools` must be a non-empty array of defineTool(...) results',
    );
  }
  options.tools.forEach((t: unknown, i) => {
    const where = `RecoveryPlugin: tools[${i}]`;
    if (!isObject(t)) throw new RecoveryPluginOptionsError(`${where} is not a defineTool(...) result`);
    const spec = (t as { spec?: unknown }).spec as { name?: unknown } | null | undefined;
    if (!isObject(spec) || typeof spec.name !== 'string') {
      throw new RecoveryPluginOptionsError(
        `${where} has no \`spec\` object with a string \`name\`: pass the result of defineTool(...), not its argument`,
      );
    }
    const { name, execute } = t as { name?: unknown; execute?: unknown };
    if (typeof execute !== 'function') {
      throw new RecoveryPluginOptionsError(`${where} (${JSON.stringify(spec.name)}) has no \`execute\` function`);
    }
    if (name !== spec.name) {
      throw new RecoveryPluginOptionsError(
        `${where}: \`name\` (${JSON.stringify(name)}) differs from \`spec.name\` (${JSON.stringify(spec.name)}); do not edit a defineTool(...) result`,
      );
    }
  });
  checkCredentials(options.credentials);
  checkBreaker(options.breaker);
  checkCredentialRefresh(options.credentialRefresh);
  checkApprovals(options.approvals);
  const telemetry = options.telemetry as Partial<Record<keyof RecoveryTelemetry, unknown>> | undefined;
  if (
    telemetry !== undefined &&
    (!isObject(telemetry) ||
      typeof telemetry.sinks !== 'function' ||
      (telemetry.addTools !== undefined && typeof telemetry.addTools !== 'function'))
  ) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `telemetry` must have a sinks() method: a RecoveryMetrics (recovery-router/metrics) or a RecoveryTelemetry',
    );
  }
  const planner = options.planner as { plan?: unknown } | undefined;
  if (planner !== undefined && (!isObject(planner) || typeof planner.plan !== 'function')) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `planner` must have a `plan(input)` method (createScriptedPlanner, createOpenAIPlanner)',
    );
  }
}

function checkCredentials(credentials: unknown): void {
  if (credentials === undefined || credentials instanceof CredentialBroker) return;
  if (!isObject(credentials) || Array.isArray(credentials)) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `credentials` must be a CredentialBroker or an object of CredentialProvider by credential id',
    );
  }
  for (const [id, provider] of Object.entries(credentials)) {
    const p = provider as { initial?: unknown; refresh?: unknown } | null;
    if (!isObject(p) || typeof p.initial !== 'function' || typeof p.refresh !== 'function') {
      throw new RecoveryPluginOptionsError(
        `RecoveryPlugin: credentials.${id} must be a CredentialProvider: an object with initial() and refresh() functions`,
      );
    }
  }
}

const SHARED_FIELDS = ['shared', 'client', 'taskQueue', 'timeoutMs', 'backoffMs'] as const;
const LOCAL_BREAKER_FIELDS = ['threshold', 'halfOpenAfterMs'] as const;
const SHARED_BREAKER_FIELDS = [...LOCAL_BREAKER_FIELDS, ...SHARED_FIELDS, 'cacheMs', 'probeLeaseMs'] as const;

function checkBreaker(breaker: unknown): void {
  if (breaker === undefined) return;
  if (!isObject(breaker) || Array.isArray(breaker)) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `breaker` must be an object { threshold?: positive integer, halfOpenAfterMs?: ms ≥ 0 }',
    );
  }
  const fields = breaker as Record<string, unknown>;
  const known: readonly string[] = fields.shared === undefined ? LOCAL_BREAKER_FIELDS : SHARED_BREAKER_FIELDS;
  const extra = Object.keys(fields).find((k) => !known.includes(k));
  if (extra !== undefined) {
    throw new RecoveryPluginOptionsError(
      `RecoveryPlugin: breaker.${extra} is not an option (known: ${known.join(', ')})`,
    );
  }
  const { threshold, halfOpenAfterMs } = fields;
  if (threshold !== undefined && !(Number.isSafeInteger(threshold) && (threshold as number) >= 1)) {
    throw new RecoveryPluginOptionsError(
      `RecoveryPlugin: breaker.threshold must be a positive integer (got ${shown(threshold)})`,
    );
  }
  checkMs('breaker.halfOpenAfterMs', halfOpenAfterMs, 0);
  if (fields.shared !== undefined) checkShared('breaker', fields, ['cacheMs', 'probeLeaseMs']);
}

/** `credentialRefresh: { shared: true, key, ... }`. */
export function checkCredentialRefresh(options: unknown): void {
  if (options === undefined) return;
  if (!isObject(options) || Array.isArray(options)) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `credentialRefresh` must be an object { shared: true, key: string | Uint8Array of ≥ 32 bytes }',
    );
  }
  const fields = options as Record<string, unknown>;
  const known = [...SHARED_FIELDS, 'key', 'refreshLeaseMs', 'refreshWaitMs'];
  const extra = Object.keys(fields).find((k) => !known.includes(k));
  if (extra !== undefined) {
    throw new RecoveryPluginOptionsError(
      `RecoveryPlugin: credentialRefresh.${extra} is not an option (known: ${known.join(', ')})`,
    );
  }
  const key = fields.key;
  const length = typeof key === 'string' ? Buffer.byteLength(key) : key instanceof Uint8Array ? key.length : 0;
  if (length < 32)
    throw new RecoveryPluginOptionsError('RecoveryPlugin: credentialRefresh.key needs at least 32 bytes');
  checkShared('credentialRefresh', fields, ['refreshLeaseMs', 'refreshWaitMs']);
}

function checkShared(where: string, fields: Record<string, unknown>, durations: string[]): void {
  if (fields.shared !== true)
    throw new RecoveryPluginOptionsError(`RecoveryPlugin: ${where}.shared must be true (got ${shown(fields.shared)})`);
  for (const name of ['timeoutMs', 'backoffMs', ...durations]) checkMs(`${where}.${name}`, fields[name], 1);
  if (fields.taskQueue !== undefined && (typeof fields.taskQueue !== 'string' || fields.taskQueue === ''))
    throw new RecoveryPluginOptionsError(`RecoveryPlugin: ${where}.taskQueue must be a non-empty string`);
  const client = fields.client as { workflow?: unknown } | undefined;
  if (client !== undefined && !(isObject(client) && isObject(client.workflow)))
    throw new RecoveryPluginOptionsError(`RecoveryPlugin: ${where}.client must be a @temporalio/client Client`);
}

function checkMs(name: string, value: unknown, min: number): void {
  if (value === undefined) return;
  if (!(typeof value === 'number' && Number.isFinite(value) && value >= min)) {
    throw new RecoveryPluginOptionsError(
      `RecoveryPlugin: ${name} must be a finite number of ms ≥ ${min} (got ${shown(value)})`,
    );
  }
}

function checkApprovals(approvals: unknown): void {
  if (approvals === undefined) return;
  const key = (approvals as { signingKey?: unknown } | null)?.signingKey;
  if (!isObject(approvals) || (key !== undefined && typeof key !== 'string' && !(key instanceof Uint8Array))) {
    throw new RecoveryPluginOptionsError(
      'RecoveryPlugin: `approvals` must be an object { signingKey?: string | Uint8Array of at least 32 bytes }',
    );
  }
  if (key === undefined) return;
  try {
    approvalKeyBytes(key);
  } catch {
    throw new RecoveryPluginOptionsError('RecoveryPlugin: approvals.signingKey needs at least 32 bytes');
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** A value as an error message shows it: bigint, symbol and NaN included, never throwing. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  return typeof value === 'symbol' ? value.toString() : String(value);
}
