/**
 * The schema of `temporal.config.json`: the plugin's policy (task queue, budgets, backoff, per-tool overrides)
 * and the embedded server's defaults. Connection settings are NOT here: they follow Temporal's own environment
 * configuration (`temporal.toml` profiles, `TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`, `TEMPORAL_API_KEY`, TLS),
 * see `config/connection.ts`.
 */
import { z } from 'zod';
import { backoffOverrideSchema, backoffPolicySchema } from '../recovery/backoff';
import { budgetOverrideSchema, budgetPolicySchema } from '../recovery/budgets';
import { classifyRuleSchema } from '../recovery/classify/rules';
import { DeskConfigSchema } from './desk-schema';
import { fromShape } from './from-shape';

export const EmbeddedServerConfigSchema = z
  .object({
    /** Loopback address the dev server binds to. @default "127.0.0.1" */
    ip: z.string().min(1).default('127.0.0.1'),
    /** gRPC frontend port. @default 7233 */
    port: z.number().int().min(1).max(65535).default(7233),
    /** Web UI port. @default 8233 */
    uiPort: z.number().int().min(1).max(65535).default(8233),
    /** Namespace created at start. @default "default" */
    namespace: z.string().min(1).default('default'),
    /** SQLite file, relative to the working directory unless absolute. @default ".temporal/data/dev.sqlite" */
    dbFilename: z.string().min(1).default('.temporal/data/dev.sqlite'),
  })
  .strict();
export type EmbeddedServerConfig = z.infer<typeof EmbeddedServerConfigSchema>;

/** Per-tool overrides of the run-wide policy. */
export const ToolOverrideSchema = z
  .object({
    budgets: fromShape(budgetOverrideSchema()).optional(),
    backoff: fromShape(backoffOverrideSchema()).optional(),
  })
  .strict();

/**
 * The schema of `temporal.config.json` (zod 4); `loadConfig` applies it and throws `ConfigError` naming the
 * file and the field.
 */
export const RecoveryConfigSchema = z
  .object({
    /** JSON Schema pointer for editors; ignored. */
    $schema: z.string().optional(),
    /** Task queue of the plugin's worker. @default "recovery-router" */
    taskQueue: z.string().min(1).default('recovery-router'),
    budgets: fromShape(budgetPolicySchema()).default(budgetPolicySchema().parse({})),
    backoff: fromShape(backoffPolicySchema()).default(backoffPolicySchema().parse({})),
    tools: z.record(z.string().min(1), ToolOverrideSchema).default({}),
    embeddedServer: EmbeddedServerConfigSchema.default(EmbeddedServerConfigSchema.parse({})),
    /**
     * What operators teach the classifier (docs/DESIGN.md, "Facts, not libraries"): `rules`, each `{ match:
     * { fingerprint?, name?, code?, status?, message? }, class, reason?, applied? }`, the first that matches wins
     * (recovery/classify/rules.ts). At most 200. @default { rules: [] }
     */
    classify: z
      .object({ rules: z.array(fromShape(classifyRuleSchema())).max(200).default([]) })
      .strict()
      .default({ rules: [] }),
    /** `recovery-router desk`: where it listens and who may decide (config/desk-schema.ts). */
    desk: DeskConfigSchema.default(DeskConfigSchema.parse({})),
  })
  .strict();
/** The validated policy of `temporal.config.json`, defaults filled in (docs/configuration.md). Durations in ms. */
export type RecoveryConfig = z.infer<typeof RecoveryConfigSchema>;
/** What a config file or object may hold: every field optional (defaults fill the rest). */
export type RecoveryConfigInput = z.input<typeof RecoveryConfigSchema>;
