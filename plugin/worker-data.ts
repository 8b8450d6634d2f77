/**
 * The worker's data for workflow code (workflows/worker-data-types.ts): the catalog, the policy of
 * temporal.config.json, the catalog's digest, and the public form of the workflow's own messages about the
 * catalog's tools where the redaction changes them. Node-side only.
 */
import { createHash } from 'node:crypto';
import type { RecoveryConfig } from '../config/schema';
import { finishPublicMessage } from '../recovery/classify/text';
import { stripControls } from '../recovery/untrusted';
import { NO_ANSWER, unansweredDraft, type NoAnswer, type UnansweredTool } from '../recovery/classify/unanswered';
import type { ToolSpec } from '../recovery/tool-spec';
import type { WorkerData } from '../workflows/worker-data-types';

/**
 * sha256 (hex, first 16 characters) of the catalog's routing facts, sorted by tool name: each spec without
 * `description`, `inputSchema`, `startToCloseTimeoutMs` and `heartbeatTimeoutMs`, which change no routing decision
 * (docs/DESIGN.md, "Workflow code and the worker").
 */
export function catalogDigest(catalog: readonly ToolSpec[]): string {
  const facts = [...catalog]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ description: _d, inputSchema: _s, startToCloseTimeoutMs: _t, heartbeatTimeoutMs: _h, ...rest }) =>
      Object.fromEntries(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1))),
    );
  return createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 16);
}

export function workerDataOf(
  catalog: readonly ToolSpec[],
  config: RecoveryConfig,
  searchAttributes: boolean,
): WorkerData {
  const publicForms = publicFormsOf(catalog);
  return {
    catalogDigest: catalogDigest(catalog),
    catalog,
    budgets: config.budgets,
    backoff: config.backoff,
    toolOverrides: config.tools,
    ...(Object.keys(publicForms).length > 0 ? { publicForms } : {}),
    ...(searchAttributes ? {} : { searchAttributes: false as const }),
  };
}

/**
 * The workflow's own messages about `catalog`'s tools (recovery/classify/unanswered.ts) that the final redaction
 * pass (`finishPublicMessage`, as `buildFailure` applies it) changes: plain text → public form. Empty for names the
 * redaction leaves as they are (nearly all).
 */
export function publicFormsOf(catalog: readonly UnansweredTool[]): Record<string, string> {
  const forms: Record<string, string> = {};
  for (const spec of catalog) {
    for (const why of Object.keys(NO_ANSWER) as NoAnswer[]) {
      const plain = unansweredDraft(spec, why).publicMessage;
      const form = finishPublicMessage(stripControls(plain));
      if (form !== plain) forms[plain] = form;
    }
  }
  return forms;
}
