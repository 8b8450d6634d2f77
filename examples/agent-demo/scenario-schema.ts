/**
 * The schema of an agent scenario file (examples/agent-demo/scenario.ts documents the format): the script, the
 * faults to arrange on the demo's services, and what is expected at the end.
 */
import { z } from 'zod';
import { ScriptedGoalSchema } from '../../activities/planners/scripted';
import { TerminalState } from '../../recovery/records';
import { RECOVERY_ACTIONS } from '../../recovery/routes';
import { AgentStatus } from '../../workflows/agent';

const ROUTE = /^(GET|POST|PUT|PATCH|DELETE) \/\S*$/;

/** Deepest nesting of arrays and objects a scenario file may have (the root object is level 1). */
export const MAX_SCENARIO_DEPTH = 100;
/** Names and goals a scenario may not have: keys of every plain object. */
export const RESERVED_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

const ScriptStepSchema = z
  .object({
    status: z.number().int().min(100).max(599).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.json().optional(),
    delayMs: z.number().int().min(0).max(60_000).optional(),
    destroy: z.boolean().optional(),
  })
  .strict();

const LedgerFaultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('lose_response') }).strict(),
  z.object({ kind: z.literal('late_response'), delayMs: z.number().int().min(0).max(60_000) }).strict(),
  z.object({ kind: z.literal('slow_commit'), delayMs: z.number().int().min(0).max(60_000) }).strict(),
  z.object({ kind: z.literal('fail_before_commit') }).strict(),
  z.object({ kind: z.literal('lost_in_transit') }).strict(),
  z.object({ kind: z.literal('commit_then_503') }).strict(),
]);

const RelativeFile = z
  .string()
  .regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$))[A-Za-z0-9_.\-/]{1,200}$/, 'a relative path without ".." segments');

/** The names `expect.rows` may count. */
export const ROW_COUNTERS = [
  'ledger:refunds',
  'ledger:emails',
  'calendar:bookings',
  'lists:items',
  'lists:notes',
] as const;
export type RowCounter = (typeof ROW_COUNTERS)[number];

export const AgentScenarioSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'names are 1-64 characters of [A-Za-z0-9_.-]'),
    description: z.string().max(500).default(''),
    goal: z.string().min(1).max(8_000),
    script: ScriptedGoalSchema,
    tools: z.array(z.string().min(1)).min(1).optional(),
    grantedScopes: z.array(z.string().min(1)).default([]),
    maxTurns: z.number().int().min(1).max(100).optional(),
    arrange: z
      .object({
        service: z
          .record(z.string().regex(ROUTE, 'routes read "METHOD /path"'), z.array(ScriptStepSchema).min(1))
          .optional(),
        ledgerFaults: z.array(LedgerFaultSchema).optional(),
        calendar: z
          .object({
            takeAfterListing: z.array(
              z
                .object({
                  day: z.iso.date(),
                  slot: z.string().regex(/^\d{2}:\d{2}$/),
                  byCustomer: z.string().regex(/^cus_/),
                })
                .strict(),
            ),
          })
          .strict()
          .optional(),
        files: z.record(RelativeFile, z.string().max(1_000_000)).optional(),
        lists: z
          .object({
            items: z
              .array(z.object({ listId: z.number().int().positive(), itemId: z.number().int().positive() }).strict())
              .max(1_000)
              .optional(),
            notes: z
              .array(z.object({ title: z.string().min(1).max(200), body: z.string().max(10_000) }).strict())
              .max(1_000)
              .optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .default({}),
    expect: z
      .object({
        status: z.enum(Object.values(AgentStatus) as [AgentStatus, ...AgentStatus[]]),
        result: z.json().optional(),
        actions: z.array(z.enum(['ok', ...RECOVERY_ACTIONS, ...Object.values(TerminalState)])).optional(),
        hits: z
          .record(
            z.string().regex(/^(service|ledger|calendar|lists):(GET|POST|PUT|PATCH|DELETE) \/\S*$/),
            z.number().int().min(0),
          )
          .optional(),
        rows: z.partialRecord(z.enum(ROW_COUNTERS), z.number().int().min(0)).optional(),
      })
      .strict(),
  })
  .strict();

export type AgentScenario = z.output<typeof AgentScenarioSchema>;
