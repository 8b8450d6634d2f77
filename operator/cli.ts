#!/usr/bin/env node
/**
 * The operator's command line, the package's `bin` (`npx recovery-router …`): list and decide pending approvals
 * and reviews, run a local Temporal dev server, and report what shadow mode would do with your activities' failures.
 * Each command and its plain Temporal CLI equivalent: docs/operating.md and docs/approvals.md.
 * Connection settings: Temporal's environment configuration, else the embedded dev server (config/connection.ts).
 */
import { Argument, Command } from 'commander';
import type { Client } from '@temporalio/client';
import { loadConfig } from '../config/load';
import { ensureEmbeddedServer } from '../server/dev-server';
import { iso } from '../workflows/approval-ledger';
import { addApprovalCommands } from './cli-approvals';
import { addDeskCommand, exitOnSignal } from './cli-desk';
import { connectClient } from './connect';
import { decideReview, listReviews, showReview } from './reviews';
import { addRulesCommands } from './rules-cli';
import { addShadowReportCommand } from './shadow-report-cli';

/** Runs `fn` with a client for the program's `--config`, then closes its connection. */
export type WithClient = (fn: (client: Client) => Promise<void>) => Promise<void>;

/** The program: `approvals`, `reviews`, `server`, `desk`, `shadow-report` and `rules` commands. Parse with `.parseAsync(argv)`. */
export function operatorCli(): Command {
  const program = new Command()
    .name('recovery-router')
    .description('Recovery Router operator commands: approvals, reviews, and a local Temporal dev server')
    .option('--config <path>', 'temporal.config.json to use (default: ./temporal.config.json, if present)');
  const configPath = () => program.opts<{ config?: string }>().config;
  const withClient: WithClient = async (fn) => {
    const client = await connectClient(configPath());
    try {
      await fn(client);
    } finally {
      await client.connection.close();
    }
  };
  addApprovalCommands(program, withClient);
  addReviewCommands(program, withClient);
  addServerCommand(program, configPath);
  addDeskCommand(program, configPath);
  addShadowReportCommand(program, withClient);
  addRulesCommands(program, withClient, configPath);
  return program;
}

function addReviewCommands(program: Command, withClient: WithClient): void {
  const reviews = program.command('reviews').description('writes whose outcome stayed unknown, waiting for a human');
  reviews
    .command('list')
    .description('operations awaiting review, across the namespace (visibility)')
    .action(() =>
      withClient(async (c) => {
        const listed = await listReviews(c);
        if (listed.length === 0) console.log('no operation awaits review');
        for (const r of listed) console.log(`${r.operationId}\t${r.tool}\t${r.workflowId}\t${iso(r.sinceMs)}`);
      }),
    );
  reviews
    .command('show <operationId>')
    .description('the review case of an operation, as JSON')
    .action((operationId: string) =>
      withClient(async (c) => console.log(JSON.stringify(await showReview(c, operationId), null, 2))),
    );
  reviews
    .command('decide')
    .description('decide a review: mark-applied (needs --result-ref), replay (same idempotency key) or abandon')
    .argument('<operationId>')
    // `mark_applied` as `reviews show` lists it in `allowed`, or `mark-applied` as a command-line word.
    .addArgument(new Argument('<decision>').choices(['mark-applied', 'mark_applied', 'replay', 'abandon']))
    .requiredOption('--by <who>', 'who decides')
    .requiredOption('--reason <text>', 'why')
    .option('--result-ref <ref>', 'with mark-applied: where the result of the applied write is')
    .option('--confirm-risk', 'with replay of a write whose receiver does not deduplicate: it may apply it twice')
    .action(
      (
        operationId: string,
        given: 'mark-applied' | 'mark_applied' | 'replay' | 'abandon',
        o: { by: string; reason: string; resultRef?: string; confirmRisk?: boolean },
      ) => {
        const verb = given === 'mark_applied' ? 'mark-applied' : given;
        // Refused here, before connecting; decideReview checks it again for callers from code.
        if (verb === 'mark-applied' && !o.resultRef?.trim())
          program.error('mark-applied needs --result-ref <ref>: where the result of the applied write is');
        return withClient(async (c) => {
          await decideReview(c, operationId, {
            decision: verb === 'mark-applied' ? 'mark_applied' : verb,
            by: o.by,
            reason: o.reason,
            ...(o.resultRef ? { resultRef: o.resultRef } : {}),
            ...(o.confirmRisk === true ? { confirmRisk: true } : {}),
          });
          console.log(`${verb} accepted for ${operationId}`);
        });
      },
    );
}

function addServerCommand(program: Command, configPath: () => string | undefined): void {
  program
    .command('server')
    .description(
      'run the Temporal dev server of temporal.config.json (embeddedServer) until Ctrl-C; needs the Temporal CLI',
    )
    .action(async () => {
      const config = loadConfig(configPath());
      const server = await ensureEmbeddedServer(config.embeddedServer);
      if (!server.started) {
        console.log(`A Temporal server already answers at ${server.address}; nothing started.`);
        return;
      }
      console.log(`Temporal dev server at ${server.address}; Web UI ${server.uiUrl}. Ctrl-C stops it.`);
      exitOnSignal(() => server.stop());
    });
}

/** Runs the program on `argv` (`process.argv`); a failure is printed without its stack and exits 1. */
export function runOperatorCli(argv: readonly string[]): void {
  operatorCli()
    .parseAsync([...argv])
    .catch((err: unknown) => {
      process.stderr.write(`${failureText(err)}\n`);
      process.exit(1);
    });
}

/**
 * A failure as one line: its message and its causes' (the Temporal client's "Failed to list workflows" says why only
 * in its `cause`, the server's gRPC error), each once; a hint where the cause is a known setup step.
 */
export function failureText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    const message = (e instanceof Error ? e.message : String(e)).trim();
    if (message !== '' && !parts.some((p) => p.includes(message))) parts.push(message);
    e = e instanceof Error ? e.cause : undefined;
  }
  const text = parts.join(': ');
  return /search attribute/i.test(text)
    ? `${text} (register the plugin's search attributes: docs/operating.md, "Search attributes")`
    : text;
}

if (require.main === module) runOperatorCli(process.argv);
