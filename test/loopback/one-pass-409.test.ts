/**
 * One pass (issue 39): a 409 from `ctx.http` reaches its route with its body read once, classified once and routed
 * once — through a real loopback HTTP server, the real `invokeTool` activity under `MockActivityEnvironment`, the
 * workflow's edge (`fromActivityError`) and the router's decision (`decide`). The frames of each step are counted
 * (project files only) and printed for the record.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { activityEnv } from '../fixtures/activity-env';
import { z } from 'zod';
import { parseBody } from '../../activities/http-body';
import { defineTool } from '../../activities/define-tool';
import { createToolActivities } from '../../activities/invoke-tool';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';
import { startCall, startRun, startTurn } from '../../recovery/budgets';
import { classify } from '../../recovery/classify';
import { assembleFailure } from '../../recovery/classify/assemble';
import { routeFor } from '../../recovery/routes';
import { fromActivityError } from '../../workflows/activity-failure';
import { decide } from '../../workflows/router/steps';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** Each counted step's frames of project code (not node_modules, not node internals) at its first call. */
const mockFrames: Record<string, string[]> = {};

/**
 * The module at `path` with `name` replaced by a jest.fn that records its first call's frames in `mockFrames` and
 * calls the real one. By `jest.mock` (hoisted above the imports, so every importer gets it): the module's exports
 * are getters, which `jest.spyOn` cannot replace. The frames are read when it is called, after this file has loaded.
 */
function mockCounted(path: string, name: string): Record<string, unknown> {
  const actual = jest.requireActual<Record<string, unknown>>(path);
  const real = actual[name] as (...a: unknown[]) => unknown;
  return {
    ...actual,
    [name]: jest.fn((...a: unknown[]) => {
      mockFrames[name] ??= (new Error().stack ?? '')
        .split('\n')
        .slice(2)
        .filter((l) => l.includes('/work/') && !l.includes('node_modules') && !l.includes('one-pass-409.test'))
        .map((l) => l.trim().replace(/\(.*\/(?=[^/]+\/[^/]+:\d+)/, '('));
      return real(...a);
    }),
  };
}
jest.mock('../../activities/http-body', () => mockCounted('../../activities/http-body', 'parseBody'));
jest.mock('../../recovery/classify', () => mockCounted('../../recovery/classify', 'classify'));
jest.mock('../../recovery/classify/assemble', () => mockCounted('../../recovery/classify/assemble', 'assembleFailure'));
jest.mock('../../recovery/routes', () => mockCounted('../../recovery/routes', 'routeFor'));
/** The jest.fn standing in for `fn` (see `mockCounted`). */
const counted = (fn: unknown) => fn as jest.Mock;

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(409, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'duplicate_order', message: 'An order with this number exists.' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('one pass: a 409 from ctx.http', () => {
  it('one pass: body read once, classified once, routed once (replan), the route decided in the workflow', async () => {
    const frames = mockFrames;
    const read = counted(parseBody);
    const readers = jest.spyOn(ReadableStream.prototype, 'getReader');
    const classified = counted(classify);
    const routed = counted(routeFor);
    const built = counted(assembleFailure);

    const tool = defineTool({
      name: 'get_order',
      description: 'Reads an order.',
      input: z.object({ id: z.string() }),
      output: z.unknown(),
      effect: 'read',
      execute: async (_args, ctx) => (await ctx.http.request({ url })).body,
    });
    const { invokeTool } = createToolActivities({ tools: [tool], backoff: DEFAULT_BACKOFF_POLICY });
    const env = activityEnv({ activityId: 'a1' }, { logger: silent });
    const thrown = await env
      .run(invokeTool, { tool: 'get_order', args: { id: 'o-1' }, callId: 'c1', operationId: 'wf:s1' })
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ApplicationFailure);
    expect((thrown as ApplicationFailure).details?.[0]).toMatchObject({ status: 409 });
    expect(readers.mock.calls.length).toBe(1);
    expect([read.mock.calls.length, classified.mock.calls.length, routed.mock.calls.length]).toEqual([1, 1, 0]);
    expect(built.mock.calls.length).toBe(1);

    // The workflow's side: the failure enters (parsed once), the router decides its next step, routing once.
    const { failure } = fromActivityError(thrown, tool.spec, 'c1', 'wf/c1');
    const budgets = startCall(startTurn(startRun({})), 's1');
    const call = {
      spec: tool.spec,
      stepId: 's1',
      operationId: 'wf:s1',
      reauthed: false,
      approved: false,
      workflowRetries: 0,
      maybeApplied: false,
      budgets,
    };
    const route = (f: typeof failure) => routeFor(f).action;
    const facts = { backoff: DEFAULT_BACKOFF_POLICY, random: () => 0.5, patched: () => true, route };
    const step = decide(call, { failure, endedAtMs: 1_000 }, facts);
    expect(failure).toMatchObject({ class: 'semantic_rejection', status: 409 });
    // `end` with its action: routed() takes it as given, so the table is not asked again.
    expect(step).toMatchObject({ kind: 'end', action: 'replan', routed: true });
    expect([read.mock.calls.length, classified.mock.calls.length, routed.mock.calls.length]).toEqual([1, 1, 1]);

    // For the record: the frames from the tool's call to the body reader, to the classifier, and to the route.
    const hops = {
      body: frames.parseBody!.length,
      classify: frames.classify!.length,
      assemble: frames.assembleFailure!.length,
      route: frames.routeFor!.length,
    };
    process.stdout.write(`one-pass-409 frames ${JSON.stringify(hops)}\n${JSON.stringify(frames, null, 1)}\n`);
    jest.restoreAllMocks();
  });
});
