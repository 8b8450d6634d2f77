/**
 * The `approvals` commands of the operator's command line (operator/cli.ts): list waiting calls, approve or deny
 * one, approve several of one run at once, revoke an approval held before use, and show a run's approval ledger
 * (docs/approvals.md, "Lifecycle").
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { approvalLedger, decideApprovals, revokeApproval } from './approval-lifecycle';
import { ApprovalError, decideApproval, listApprovals, pendingApprovals } from './approvals';
import { iso } from '../workflows/approval-ledger';
import type { WithClient } from './cli';

interface ApproveOptions {
  digest: string;
  by: string;
  reason?: string;
  keyFile?: string;
}

/** `approvals pending | list | approve | deny | approve-batch | revoke | ledger`. */
export function addApprovalCommands(program: Command, withClient: WithClient): void {
  const approvals = program.command('approvals').description('tool calls waiting for a human approval');
  approvals
    .command('pending')
    .description('workflows with a call waiting for approval, across the namespace (visibility)')
    .action(() =>
      withClient(async (c) => {
        const listed = await listApprovals(c);
        if (listed.length === 0) console.log('no workflow waits for approval');
        else console.log('workflowId\ttool\tsince');
        for (const a of listed) console.log(`${a.workflowId}\t${a.tool}\t${iso(a.startedAtMs)}`);
      }),
    );
  approvals
    .command('list <workflowId>')
    .description('the calls of one workflow that wait for approval')
    .action((workflowId: string) =>
      withClient(async (c) => {
        const pending = await pendingApprovals(c, workflowId);
        if (pending.length === 0) console.log('no calls wait for approval');
        for (const p of pending) {
          console.log(`callId      ${p.callId} (the <callId> of approve and deny)`);
          console.log(`  tool       ${p.tool}\n  operation  ${p.operationId}\n  message    ${p.message}`);
          console.log(`  argsDigest ${p.argsDigest}`);
          console.log(`  args       ${JSON.stringify(p.argsPreview)}`);
        }
      }),
    );
  for (const verb of ['approve', 'deny'] as const) {
    const command = approvals
      .command(`${verb} <workflowId> <callId>`)
      .description(
        verb === 'approve'
          ? 'approve a waiting call: it runs again once, with the approval'
          : 'deny a waiting call: it stops ("A person declined this action.")',
      )
      .requiredOption('--digest <argsDigest>', 'the argsDigest that `approvals list` shows: what you decide on');
    decisionOptions(command).action((workflowId: string, callId: string, o: ApproveOptions) =>
      withClient(async (c) => {
        const decision = { callId, argsDigest: o.digest, approved: verb === 'approve', ...byAndReason(o) };
        const grant = await decideApproval(c, workflowId, decision, keyOf(o));
        const who = grant.identity ? ` (recorded identity ${grant.identity})` : '';
        console.log(`${verb === 'approve' ? 'approved' : 'denied'} ${callId}${who}`);
      }),
    );
  }
  addLifecycleCommands(approvals, withClient);
}

/** `<callId>=<argsDigest>` → the call of a batch. @throws ApprovalError naming the argument */
function batchCall(arg: string): { callId: string; argsDigest: string } {
  const eq = arg.lastIndexOf('=');
  if (eq <= 0) throw new ApprovalError(`${arg}: give each call as <callId>=<argsDigest>`);
  return { callId: arg.slice(0, eq), argsDigest: arg.slice(eq + 1) };
}

/** `--by`, `--reason` and `--key-file`: who decides, why, and the approval signing key. */
const decisionOptions = (command: Command) =>
  command
    .requiredOption('--by <who>', 'who decides')
    .option('--reason <text>', 'why')
    .option('--key-file <path>', 'the approval signing key, when the workers require signed approvals');
const byAndReason = (o: { by: string; reason?: string }) => ({ by: o.by, ...(o.reason ? { reason: o.reason } : {}) });
const keyOf = (o: { keyFile?: string }) => (o.keyFile ? { signingKey: readFileSync(o.keyFile) } : {});

function addLifecycleCommands(approvals: Command, withClient: WithClient): void {
  const batch = approvals
    .command('approve-batch <workflowId> <calls...>')
    .description('approve several waiting calls of one run at once (<callId>=<argsDigest> each): all or none');
  decisionOptions(batch).action((workflowId: string, calls: string[], o: Omit<ApproveOptions, 'digest'>) =>
    withClient(async (c) => {
      const decision = { calls: calls.map(batchCall), approved: true, ...byAndReason(o) };
      const grants = await decideApprovals(c, workflowId, decision, keyOf(o));
      console.log(`approved ${grants.map((g) => g.callId).join(', ')}`);
    }),
  );
  approvals
    .command('revoke <workflowId> <callId>')
    .description('revoke an approval that is held before use (approvalHoldMs): the call stops')
    .requiredOption('--by <who>', 'who revokes')
    .option('--reason <text>', 'why')
    .action((workflowId: string, callId: string, o: { by: string; reason?: string }) =>
      withClient(async (c) => {
        await revokeApproval(c, workflowId, { callId, ...byAndReason(o) });
        console.log(`revoked ${callId}`);
      }),
    );
  approvals
    .command('ledger <workflowId>')
    .description("a run's approval requests and what became of them")
    .action((workflowId: string) =>
      withClient(async (c) => {
        for (const e of await approvalLedger(c, workflowId)) {
          const who = e.decision ? ` by ${e.decision.by} at ${iso(e.decision.atMs)}` : '';
          console.log(`${e.callId}\t${e.tool}\t${e.state}${who}\texpires ${iso(e.expiresAtMs)}`);
        }
      }),
    );
}
