/**
 * The client side: start plans, list and decide pending approvals. Functions for code, and a CLI (commander):
 *
 *   npm run client -- approvals list <workflowId>
 *   npm run client -- approvals approve <workflowId> <callId> --by ops@example --reason "one-off export"
 *   npm run client -- approvals deny <workflowId> <callId> --by ops@example
 *
 * The plain Temporal CLI equivalent of `approve`:
 *   temporal workflow signal --workflow-id <workflowId> --name recovery.approval \
 *     --input '{"callId":"<callId>","approved":true,"by":"ops@example"}'
 *
 * Connection settings: Temporal's environment configuration, else the embedded dev server (config/connection.ts).
 */
import { Command } from 'commander';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from './config/load';
import { resolveConnection } from './config/connection';
import {
  approvalSignal,
  pendingApprovalsQuery,
  type ApprovalDecision,
  type PendingApproval,
} from './workflows/definitions';

/** A connected client for the configured target. Close `client.connection` when done. */
export async function connectClient(configPath?: string): Promise<Client> {
  const target = resolveConnection(loadConfig(configPath));
  const connection = await Connection.connect(target.connectionOptions);
  return new Client({ connection, namespace: target.namespace });
}

/** The calls of a workflow that wait for approval. */
export function pendingApprovals(client: Client, workflowId: string): Promise<PendingApproval[]> {
  return client.workflow.getHandle(workflowId).query(pendingApprovalsQuery);
}

/** A decision that cannot be sent. */
export class ApprovalError extends Error {
  override readonly name = 'ApprovalError';
}

/**
 * Sends a decision on a waiting call.
 * @throws ApprovalError when `by` is empty or the call is not waiting (checked with the query first, so a
 *   mistyped call id is reported instead of silently ignored by the workflow).
 */
export async function decideApproval(client: Client, workflowId: string, decision: ApprovalDecision): Promise<void> {
  if (!decision.by?.trim()) throw new ApprovalError('an approval decision needs `by`: who decided');
  const pending = await pendingApprovals(client, workflowId);
  if (!pending.some((p) => p.callId === decision.callId)) {
    const waiting = pending.map((p) => p.callId).join(', ') || 'none';
    throw new ApprovalError(
      `call ${decision.callId} of ${workflowId} is not waiting for approval (waiting: ${waiting})`,
    );
  }
  await client.workflow.getHandle(workflowId).signal(approvalSignal, decision);
}

function cli(): Command {
  const program = new Command().name('recovery-client').option('--config <path>', 'temporal.config.json to use');
  const approvals = program.command('approvals').description('tool calls waiting for a human approval');
  const withClient = async (fn: (client: Client) => Promise<void>) => {
    const client = await connectClient(program.opts<{ config?: string }>().config);
    try {
      await fn(client);
    } finally {
      await client.connection.close();
    }
  };
  approvals.command('list <workflowId>').action((workflowId: string) =>
    withClient(async (c) => {
      const pending = await pendingApprovals(c, workflowId);
      if (pending.length === 0) console.log('no calls wait for approval');
      for (const p of pending) console.log(`${p.callId}\t${p.tool}\t${p.operationId}\t${p.message}`);
    }),
  );
  for (const verb of ['approve', 'deny'] as const) {
    approvals
      .command(`${verb} <workflowId> <callId>`)
      .requiredOption('--by <who>', 'who decides')
      .option('--reason <text>', 'why')
      .action((workflowId: string, callId: string, o: { by: string; reason?: string }) =>
        withClient(async (c) => {
          await decideApproval(c, workflowId, {
            callId,
            approved: verb === 'approve',
            by: o.by,
            ...(o.reason ? { reason: o.reason } : {}),
          });
          console.log(`${verb === 'approve' ? 'approved' : 'denied'} ${callId}`);
        }),
      );
  }
  return program;
}

if (require.main === module) {
  cli()
    .parseAsync(process.argv)
    .catch((err) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
