/**
 * The three arms of the shadow bench, one worker each on the eval's dev server, the same plain activities and the
 * same workflow (./workflow.ts): Temporal's default retry policy as it is (`temporal-default`), with shadow mode
 * (`shadow`: must change nothing), and with enforce on every activity (`enforce`), each activity declared as its
 * tool is (./activities.ts `declarations`), the money transfer's as the bench declares them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker, type WorkerPlugin } from '@temporalio/worker';
import type { CredentialBroker } from '../../activities/credentials';
import type { AnyTool } from '../../activities/define-tool';
import type { ShadowActivityDeclaration } from '../../plugin/shadow/options';
import { ShadowPlugin } from '../../plugin/shadow/shadow-plugin';
import { createPlainToolActivities, declarations } from './activities';

export const ARMS = ['temporal-default', 'shadow', 'enforce'] as const;
export type Arm = (typeof ARMS)[number];

export const queueOf = (arm: Arm): string => `shadow-bench-${arm}`;

function pluginsOf(arm: Arm, declare: Record<string, ShadowActivityDeclaration>): WorkerPlugin[] {
  switch (arm) {
    case 'temporal-default':
      return [];
    case 'shadow':
      return [new ShadowPlugin({ mode: 'shadow', declare })];
    case 'enforce':
      return [new ShadowPlugin({ mode: 'enforce', activities: Object.keys(declare), declare })];
  }
}

/** The three workers (and extra activities for each, e.g. the money transfer's), polling until `close`. */
export async function startArms(o: {
  address: string;
  tmp: string;
  tools: readonly AnyTool[];
  broker: CredentialBroker;
  workflowsPath: string;
  extraActivities: Record<string, (...args: never[]) => Promise<unknown>>;
  extraDeclarations: Record<string, ShadowActivityDeclaration>;
}): Promise<{ run<T>(fn: () => Promise<T>): Promise<T>; close(): Promise<void> }> {
  const code = await bundleWorkflowCode({ workflowsPath: o.workflowsPath, logger: new DefaultLogger('ERROR') });
  const codePath = join(o.tmp, 'shadow-bench-workflows.js');
  writeFileSync(codePath, code.code);
  const connection = await NativeConnection.connect({ address: o.address });
  const activities = { ...createPlainToolActivities(o.tools, o.broker), ...o.extraActivities };
  const declare = { ...declarations(o.tools, o.broker), ...o.extraDeclarations };
  const workers = await Promise.all(
    ARMS.map((arm) =>
      Worker.create({
        connection,
        taskQueue: queueOf(arm),
        activities,
        plugins: pluginsOf(arm, declare),
        workflowBundle: { codePath },
        maxConcurrentActivityTaskExecutions: 200,
        maxCachedWorkflows: 500,
      }),
    ),
  );
  return {
    run: (fn) => workers.reduce<() => Promise<unknown>>((inner, w) => () => w.runUntil(inner()), fn)() as never,
    close: () => connection.close(),
  };
}
