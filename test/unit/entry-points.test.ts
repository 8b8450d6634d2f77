/**
 * The package's entry points, read by the TypeScript checker from their sources (no build): the main entry lists at
 * most 40 names (values and types), and every name it exported before the split of issue 30 is still exported by
 * an entry point (`recovery-router/workflow`, `/operator`, `/testing` or `/server`); the workflow entry lists its 40
 * names, and every name it exported before its own split is where it moved (`/workflows`, `/types`, `/operator`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { default: string }>;
};

/** Subpath (`.`, `./workflow`, …) → its source file, from package.json's exports. */
const SOURCES: Record<string, string> = Object.fromEntries(
  Object.entries(pkg.exports)
    .filter(([, target]) => typeof target !== 'string') // package.json and the JSON Schema are files
    .map(([subpath, target]) => [
      subpath,
      join(ROOT, (target as { default: string }).default.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')),
    ]),
);

/** Subpath → the names its module exports (values and types), as the checker sees them. */
function exportedNames(): Record<string, string[]> {
  const program = ts.createProgram(Object.values(SOURCES), { noEmit: true, skipLibCheck: true, types: ['node'] });
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    Object.entries(SOURCES).map(([subpath, file]) => {
      const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
      return [subpath, checker.getExportsOfModule(symbol).map((s) => s.name)];
    }),
  );
}

/** What `recovery-router` exported before the split (main 677a048): 126 names. */
const BEFORE =
  `RecoveryPlugin RecoveryPluginOptionsError RECOVERY_PRELOAD_MODULES SearchAttributesError RecoveryPluginOptions
NO_TELEMETRY RecoveryTelemetry TracingOptions ERROR_TYPES GenAiAttr RecoveryAttr ShadowPlugin ShadowPluginOptions
ShadowActivityDeclaration ShadowLookupResult ShadowMode ShadowOptions defineTool toolCatalog ToolDefinitionError AnyTool
DefinedTool LookupResult RuleViolation ToolDefinition VerifyResult conceptsOf vocabulary Concept PostconditionVerdict
ToolContext HttpOutcomeError ToolHttp ToolHttpRequest ToolHttpResponse ToolClassifier ToolClassifierAnswer Idempotency
ToolSpec CredentialBroker CredentialRefreshFailed UnknownCredential CredentialProvider BreakerOptions Breakers
SharedBreaker SharedBreakerOptions SharedCredentialOptions breakerEntityId breakerStateQuery credentialEntityId
credentialStateQuery BreakerEntityState CredentialEntityState createPlannerActivities PlannerOutputError Planner
PlannerActivityOptions createScriptedPlanner loadScriptedPolicy parseScriptedPolicy ScriptedPolicyError
ScriptedPolicyErrorCode ScriptedPolicy Observation PlannerDecision PlannerInput ConfigError loadConfig RecoveryConfig
RecoveryConfigInput resolveConnection ConnectionTarget ensureEmbeddedServer EmbeddedServer findTemporalCli
TemporalCliNotFoundError ApprovalError approvalLedger connectClient decideApproval decideApprovals decideReview
listApprovals listReviews pendingApprovals ReviewError ReviewErrorCode revokeApproval shadowReport shadowReportTable
showReview startDesk hashPassword ApprovalListing ApprovalRequest BatchRequest DeskOptions ReviewListing RunningDesk
ShadowReport ShadowReportOptions signApproval ApprovalSigningFields ApprovalActivityOptions fetchHistoryJSON
replayHistoryFiles replayWorkflowsFromServer ReplayOutcome RECOVERY_ERROR_BRAND RecoveryError isRecoveryError CodeOf
FailureClass FailureReason Phase APPLICATION_FAILURE_TYPES ApplicationFailureType FieldIssue ToolFailure ModelFeedback
RecoveryAction TerminalState RecoveryRecord BackoffPolicy BudgetPolicy`.split(/\s+/);

const names = exportedNames();

test('entry points: the main entry exports at most 40 names (values and types)', () => {
  expect(BEFORE).toHaveLength(126);
  expect(names['.']!.length).toBeLessThanOrEqual(40);
  expect(names['.']).toEqual(
    expect.arrayContaining(['RecoveryPlugin', 'defineTool', 'HttpOutcomeError', 'loadConfig']),
  );
});

test('entry points: every name the main entry exported before is exported by an entry point', () => {
  const everywhere = new Set(Object.values(names).flat());
  expect(BEFORE.filter((n) => !everywhere.has(n))).toEqual([]);
});

test('entry points: operator functions, testing helpers and the dev server are on their subpaths, not the main entry', () => {
  const moved = {
    './operator': ['decideApproval', 'decideReview', 'startDesk', 'ShadowPlugin', 'shadowReport', 'breakerStateQuery'],
    './testing': ['replayHistoryFiles', 'fetchHistoryJSON', 'createScriptedPlanner', 'loadScriptedPolicy'],
    './server': ['ensureEmbeddedServer', 'findTemporalCli', 'resolveConnection'],
  };
  for (const [subpath, list] of Object.entries(moved)) {
    expect([subpath, list.filter((n) => !names[subpath]!.includes(n))]).toEqual([subpath, []]);
    expect([subpath, list.filter((n) => names['.']!.includes(n))]).toEqual([subpath, []]);
  }
});

/** What `recovery-router/workflow` exports (STYLE.md, "surfaces"): what a workflow written with the router needs. */
const WORKFLOW_VALUES =
  `createToolRouter isEmptyResult ExhaustedBudget RecoveryError isRecoveryError FailureClass FailureReason Phase
ApplicationFailureType RecoveryAction agentStateQuery approvalLedgerQuery approvalSignal decideApprovalsUpdate
decideApprovalUpdate decideReviewUpdate pendingApprovalsQuery recoveryRecordsQuery reviewCaseQuery reviewDecisionSignal
revokeApprovalUpdate userMessageSignal`.split(/\s+/);
const WORKFLOW_TYPES =
  `CallToolOptions ToolInput ToolName ToolOutcome ToolOutput ToolRouter OmittedValue RecoveryRecord ToolRouterOptions
ToolRouterState Capability ToolSpec BackoffPolicy BudgetPolicy ReconcileOptions FieldIssue ToolFailure
ModelFeedback`.split(/\s+/);

/** Where each name `recovery-router/workflow` exported before (main fba7ac1, 82 names) and no longer does went. */
const MOVED: Record<string, string[]> = {
  './workflows': `reconcileOperationWorkflow ReconcileInput ReconcileResult agentWorkflow AgentStatus AgentCarry
AgentOptions AgentResult toolPlanWorkflow PlannedCall ToolPlanInput ToolPlanResult Observation PlannerDecision
PlannerInput`.split(/\s+/),
  './types': `AgentState ApprovalDecision ApprovalEntry ApprovalGrant ApprovalState BatchApprovalDecision BatchCall
LookupRecord PendingApproval ReviewCase ReviewDecision RevokeApproval UserMessage CodeOf BudgetLedger CallLedger
Reconciled ToolRouterBase`.split(/\s+/),
  './operator': `MAX_BATCH_CALLS reconcileWorkflowId RecoveryOperationId RecoveryStatus RecoveryTool SEARCH_ATTRIBUTES
TerminalState APPLICATION_FAILURE_TYPES RECOVERY_ERROR_BRAND`.split(/\s+/),
};

const sorted = (list: readonly string[]) => [...list].sort();

test('entry points: recovery-router/workflow exports exactly its list, at most 40 names (values at run time, types by the checker)', () => {
  expect(WORKFLOW_VALUES.length + WORKFLOW_TYPES.length).toBe(40);
  expect(sorted(names['./workflow']!)).toEqual(sorted([...WORKFLOW_VALUES, ...WORKFLOW_TYPES]));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module's values as a bundle sees them
  expect(sorted(Object.keys(require('../../workflow') as object))).toEqual(sorted(WORKFLOW_VALUES));
});

test('entry points: every name recovery-router/workflow exported before is exported where it moved, and no longer there', () => {
  expect(Object.values(MOVED).flat().length + WORKFLOW_VALUES.length + WORKFLOW_TYPES.length).toBe(82);
  for (const [subpath, list] of Object.entries(MOVED)) {
    expect([subpath, list.filter((n) => !names[subpath]!.includes(n))]).toEqual([subpath, []]);
    expect([subpath, list.filter((n) => names['./workflow']!.includes(n))]).toEqual([subpath, []]);
  }
});

test('entry points: recovery-router/types exports types only (it loads nothing at run time)', () => {
  expect(sorted(names['./types']!)).toEqual(sorted(MOVED['./types']!));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled module's values
  expect(Object.keys(require('../../types') as object)).toEqual([]);
});
