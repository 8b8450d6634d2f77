/**
 * The `shadow-report` command of the operator CLI (operator/cli.ts):
 *
 *   recovery-router shadow-report [--query 'WorkflowType="Checkout"'] [--limit 200] \
 *     [--writes chargeCard,sendEmail] [--reads getCustomer] [--json]
 *
 * Prints the table of operator/shadow-report.ts; `--json` prints the report itself. Node-side only.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Client } from '@temporalio/client';
import type { ShadowActivityDeclaration } from '../plugin/shadow/options';
import { shadowReport, shadowReportTable } from './shadow-report';

interface ReportOptions {
  query?: string;
  limit: number;
  writes?: string[];
  reads?: string[];
  json?: boolean;
}

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** A command-line integer ≥ 1. @throws InvalidArgumentError otherwise. */
export function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer ≥ 1');
  return n;
}

/** The effects the options declare, by activity type. */
export function declarations(o: Pick<ReportOptions, 'writes' | 'reads'>): Record<string, ShadowActivityDeclaration> {
  return {
    ...Object.fromEntries((o.reads ?? []).map((t) => [t, { effect: 'read' as const }])),
    ...Object.fromEntries((o.writes ?? []).map((t) => [t, { effect: 'write' as const }])),
  };
}

export function addShadowReportCommand(
  program: Command,
  withClient: (fn: (client: Client) => Promise<void>) => Promise<void>,
): void {
  program
    .command('shadow-report')
    .description(
      "what the router would have done with the failures of your activities, from the namespace's recent histories",
    )
    .option('--query <query>', 'a visibility query: which workflows to read (default: the newest)')
    .option('--limit <n>', 'most workflows read', positive, 200)
    .option('--writes <types>', 'activity types that write (comma-separated); undeclared ones count as writes', list)
    .option('--reads <types>', 'activity types that only read (comma-separated)', list)
    .option('--json', 'print the report as JSON')
    .action((o: ReportOptions) =>
      withClient(async (c) => {
        const report = await shadowReport(c, { query: o.query, limit: o.limit, declare: declarations(o) });
        console.log(o.json ? JSON.stringify(report, null, 2) : shadowReportTable(report));
      }),
    );
}
