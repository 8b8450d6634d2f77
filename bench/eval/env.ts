/**
 * Everything the eval runs on, started in this process: the embedded Temporal dev server (server/dev-server.ts) on
 * free ports with a temporary SQLite file, the world service, the examples' calendar and ledger, PostgreSQL
 * (test/setup/postgres-server.ts), one OAuth loopback per credential slot, and two workers on the same server:
 * - the router's: `RecoveryPlugin` with every tool, the credential slots, and the scripted planner (a registry:
 *   each run adds its goal's script before it starts);
 * - the baselines': `baselineAgentWorkflow` and `runToolPlain` over the same instrumented tools.
 * The plugin's circuit breaker is set out of reach (threshold 10^6): the eval's runs share one worker, and one
 * scenario's faults must not open another's circuit (bench/chaos.ts and the breaker tests cover the breaker).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker } from '@temporalio/worker';
import { Pool } from 'pg';
import { CredentialBroker } from '../../activities/credentials';
import { toolCatalog, type AnyTool } from '../../activities/define-tool';
import { createScriptedPlanner } from '../../activities/planners/scripted';
import type { Planner } from '../../activities/planners/planner';
import { calendarTools } from '../../examples/calendar-tools';
import { startCalendarService } from '../../examples/calendar-service';
import { startLedgerService, type Fault, type LedgerService } from '../../examples/ledger-service';
import { ledgerTools } from '../../examples/ledger-tools';
import { RecoveryPlugin, RECOVERY_WORKFLOWS_PATH } from '../../plugin/recovery-plugin';
import type { ToolSpec } from '../../recovery/tool-spec';
import { ensureEmbeddedServer } from '../../server/dev-server';
import { freePort, startPostgres } from '../../test/setup/postgres-server';
import { createBaselineActivities } from './baseline/activities';
import { flakyProvider, slotTools, startCredentialSlots, type CredentialSlot } from './credential-tools';
import { paladinTools, PALADIN_SSO_CREDENTIAL } from './paladin/tools';
import { pgTools, preparePg, type PgFaults } from './pg-tools';
import { RunRecorder, runIdOf } from './recorder';
import type { EvalEnv, Script } from './scenario';
import type { PolicyName } from './scoring';
import { worldReadTools, worldWriteTools } from './tools';
import { startWorldService, type WorldService } from './world-service';

export const ROUTER_QUEUE = 'eval-router';
export const BASELINE_QUEUE = 'eval-baseline';

/** The scripted planner, one script per goal, added before each run starts. */
export class PlannerRegistry implements Planner {
  private readonly byGoal = new Map<string, Planner>();
  add(goal: string, script: Script): void {
    this.byGoal.set(goal, createScriptedPlanner({ goals: { [goal]: script } }));
  }
  plan(...args: Parameters<Planner['plan']>): ReturnType<Planner['plan']> {
    const planner = this.byGoal.get(args[0].goal);
    if (!planner) return Promise.reject(new Error(`no script for the goal ${JSON.stringify(args[0].goal)}`));
    return planner.plan(...args);
  }
}

export interface Eval {
  env: EvalEnv;
  client: Client;
  /** The dev server's address (`host:port`). */
  address: string;
  /** Every tool, instrumented by the recorder (the workers' tools). */
  tools: AnyTool[];
  plugin: RecoveryPlugin;
  planners: PlannerRegistry;
  catalog: ToolSpec[];
  slots: CredentialSlot[];
  /** An empty folder of the run's temporary directory. */
  filesDir: string;
  /** Runs `fn` while both workers poll. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Bundler output at ERROR level only. */
const quiet = new DefaultLogger('ERROR');

type Closer = () => Promise<unknown>;

/** The dev server and the services, started in parallel; each pushes its closer. */
async function startServices(tmp: string, slotCount: number, closers: Closer[]) {
  const [server, world, ledger, calendar, pg, slots] = await Promise.all([
    (async () =>
      ensureEmbeddedServer({
        ip: '127.0.0.1',
        port: await freePort(),
        uiPort: await freePort(),
        namespace: 'default',
        dbFilename: join(tmp, 'dev.sqlite'),
      }))(),
    startWorldService(),
    startLedgerService(),
    startCalendarService(),
    startPostgres(),
    startCredentialSlots(slotCount),
  ]);
  closers.push(
    () => server.stop(),
    () => world.close(),
    () => ledger.close(),
    () => calendar.close(),
  );
  closers.push(() => pg.stop(), ...slots.map((s) => () => s.oauth.close()));
  const pgConfig = { host: '127.0.0.1', port: pg.port, user: pg.user, password: pg.password, database: 'postgres' };
  const pool = new Pool({ ...pgConfig, max: 12 });
  const other = new Pool({ ...pgConfig, max: 12 });
  for (const p of [pool, other]) p.on('error', () => undefined); // a terminated backend is the eval's doing
  closers.push(
    () => pool.end(),
    () => other.end(),
  );
  await preparePg(pool);
  return { server, world, ledger, calendar, slots, pool, other };
}

/** One fault hook per shared path: runs arm theirs by workflow id (the ledger) or recipient (the e-mails). */
function faultHooks(world: WorldService, ledger: LedgerService): Pick<EvalEnv, 'armLedgerFault' | 'armEmailFault'> {
  const ledgerFaults = new Map<string, Fault>();
  ledger.setFaultPicker((key) => {
    const runId = runIdOf(key);
    const fault = ledgerFaults.get(runId);
    ledgerFaults.delete(runId);
    return fault;
  });
  const emailFaults = new Map<string, 'destroy' | number>();
  world.fault('POST /emails', (_n, _now, body) => {
    const f = typeof body.recipient === 'string' ? emailFaults.get(body.recipient) : undefined;
    if (f === undefined) return undefined;
    emailFaults.delete(body.recipient as string);
    return { afterCommit: f };
  });
  return {
    armLedgerFault: (runId, fault) => void ledgerFaults.set(runId, fault),
    armEmailFault: (recipient, fault) => void emailFaults.set(recipient, fault),
  };
}

/**
 * Starts the services, the dev server and the two workers. @param o.slots credential slots to start.
 * @param o.workers false: no worker (a bench that runs its own; `run` then runs `fn` alone). @default true
 */
export async function startEval(o: { slots: number; workers?: boolean }): Promise<Eval> {
  const tmp = mkdtempSync(join(tmpdir(), 'rr-eval-'));
  mkdirSync(join(tmp, 'files'));
  const closers: Closer[] = [async () => rmSync(tmp, { recursive: true, force: true })];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  };
  try {
    const { server, world, ledger, calendar, slots, pool, other } = await startServices(tmp, o.slots, closers);
    const pgFaults: PgFaults = { conflicts: new Map(), kills: new Map() };
    const recorder = new RunRecorder();
    const tools: AnyTool[] = [
      ...worldReadTools(world.url),
      ...worldWriteTools(world.url),
      ...calendarTools(calendar.url).all,
      ledgerTools(ledger.url).issueRefund,
      ...slotTools(slots),
      ...pgTools(pool, other, pgFaults),
      ...paladinTools({ worldUrl: world.url }),
    ].map((t) => recorder.instrument(t));
    const providers = Object.fromEntries(slots.map((s) => [s.credential, s.provider]));
    const routerBroker = new CredentialBroker({ ...providers, [PALADIN_SSO_CREDENTIAL]: flakyProvider(1) });
    const baselineBroker = new CredentialBroker(providers);
    const connection = await Connection.connect({ address: server.address });
    closers.push(() => connection.close());
    const planners = new PlannerRegistry();
    const plugin = new RecoveryPlugin({
      tools,
      credentials: routerBroker,
      planner: planners,
      breaker: { threshold: 1_000_000 },
      config: { taskQueue: ROUTER_QUEUE },
    });
    const workers =
      o.workers === false
        ? undefined
        : await createWorkers(server.address, tmp, plugin, tools, baselineBroker, recorder);
    if (workers) closers.push(() => workers.connection.close());
    const env: EvalEnv = {
      world,
      ledger,
      calendar,
      recorder,
      pool,
      pgFaults,
      takeSlot: slotTaker(slots),
      ...faultHooks(world, ledger),
      brokerFor: (policy: PolicyName) => (policy === 'router' ? routerBroker : baselineBroker),
    };
    return {
      env,
      client: new Client({ connection }),
      address: server.address,
      tools,
      plugin,
      planners,
      catalog: toolCatalog(tools),
      slots,
      filesDir: join(tmp, 'files'),
      run: (fn) => (workers ? workers.router.runUntil(workers.baseline.runUntil(fn)) : fn()),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

function slotTaker(slots: readonly CredentialSlot[]): () => CredentialSlot {
  let next = 0;
  return () => {
    const slot = slots[next++];
    if (!slot) throw new Error(`no credential slot left (${slots.length} started)`);
    return slot;
  };
}

async function createWorkers(
  address: string,
  tmp: string,
  plugin: RecoveryPlugin,
  tools: AnyTool[],
  broker: CredentialBroker,
  recorder: RunRecorder,
): Promise<{ router: Worker; baseline: Worker; connection: NativeConnection }> {
  const [routerCode, baselineCode] = await Promise.all([
    bundleWorkflowCode({ workflowsPath: RECOVERY_WORKFLOWS_PATH, logger: quiet }),
    bundleWorkflowCode({ workflowsPath: require.resolve('./baseline/workflow'), logger: quiet }),
  ]);
  const routerPath = join(tmp, 'router-workflows.js');
  const baselinePath = join(tmp, 'baseline-workflows.js');
  writeFileSync(routerPath, routerCode.code);
  writeFileSync(baselinePath, baselineCode.code);
  const connection = await NativeConnection.connect({ address });
  const common = { connection, maxConcurrentActivityTaskExecutions: 400, maxCachedWorkflows: 1_000 };
  const [router, baseline] = await Promise.all([
    Worker.create({ ...common, taskQueue: ROUTER_QUEUE, plugins: [plugin], workflowBundle: { codePath: routerPath } }),
    Worker.create({
      ...common,
      taskQueue: BASELINE_QUEUE,
      activities: createBaselineActivities(tools, broker, (inv) =>
        recorder.unknownTool(inv.operationId, inv.tool, inv.args),
      ),
      workflowBundle: { codePath: baselinePath },
    }),
  ]);
  return { router, baseline, connection };
}
