/**
 * What the worker supplies to workflow code (docs/DESIGN.md, "Workflow code and the worker"): the tools' specs and
 * the policy of temporal.config.json, so that starting a workflow needs none of it. Types only. Sandbox-safe.
 */
import type { BackoffPolicy } from '../recovery/backoff';
import type { BudgetPolicy } from '../recovery/budgets';
import type { ToolSpec } from '../recovery/tool-spec';

/** What the worker hands its workflow bundle: the catalog, the policy and whether search attributes are set. */
export interface WorkerData {
  /**
   * sha256 (hex, first 16 characters) of the catalog's routing facts: every field of every spec but `description`,
   * `inputSchema`, `startToCloseTimeoutMs` and `heartbeatTimeoutMs` (docs/DESIGN.md, "Workflow code and the worker").
   */
  readonly catalogDigest: string;
  readonly catalog: readonly ToolSpec[];
  readonly budgets: BudgetPolicy;
  readonly backoff: BackoffPolicy;
  readonly toolOverrides: Record<string, { budgets?: Partial<BudgetPolicy>; backoff?: Partial<BackoffPolicy> }>;
  /**
   * The workflow's own messages about the catalog's tools (recovery/classify/unanswered.ts) that the redaction
   * changes, plain text → public form, computed by the worker; absent when there are none (names the redaction
   * leaves as they are). The workflow bundle has no redaction rules (docs/DESIGN.md, "What the model sees").
   */
  readonly publicForms?: Readonly<Record<string, string>>;
  /** `false` with the plugin's `searchAttributes: false`; absent otherwise. */
  readonly searchAttributes?: false;
}
