/**
 * What the eval sees of each run from the tools' side: every execution of a tool's `execute` (a dispatch), `lookup`
 * and `verify`, recorded by a wrapper around the tool (`instrument`), and the faults the run's schedule makes a tool
 * throw. Runs are told apart by their workflow id, the prefix of every operation_id (`<workflowId>:<step>`: the
 * router's and the baselines' alike). Both arms run the same instrumented tools, so counts compare like for like.
 */
import { defineTool, type AnyTool } from '../../activities/define-tool';
import { HttpOutcomeError } from '../../activities/http';
import type { ToolContext } from '../../activities/tool-context';
import { canonicalize } from '../../recovery/canonical';
import type { Dispatch } from './scoring';

/** One read the router made about a write: a `lookup` of its terminal state, or a `verify` of its postcondition. */
export interface Lookup {
  tool: string;
  kind: 'lookup' | 'verify';
  startMs: number;
  endMs: number;
  /** `applied`, `not_applied`, `unknown` (a lookup); `holds`, `does_not_hold`, `unknown` (a verify); or `threw`. */
  state: string;
}

/** A fault a tool throws instead of running: `times` dispatches of that tool in that run, then the real call. */
export interface InjectedFault {
  times: number;
  /** Throws (or performs the failing operation); never returns normally. */
  raise(args: unknown, ctx: ToolContext): Promise<never>;
}

/**
 * The workflow id an operation_id belongs to: everything before the first `@` (a write's key,
 * `<workflowId>@<intent>:<stepId>`, docs/tools.md "One intent, one key") or `:` (a read's call id). The eval's
 * workflow ids hold neither.
 */
export function runIdOf(operationId: string): string {
  const i = operationId.search(/[@:]/);
  return i < 0 ? operationId : operationId.slice(0, i);
}

/** A short, stable signature of what a tool threw: `http 409 slot_taken`, `thrown TypeError UND_ERR_SOCKET`. */
export function failureSignature(err: unknown): string {
  if (HttpOutcomeError.is(err)) {
    const code = (err.outcome.body as { code?: unknown } | undefined)?.code;
    return `http ${err.outcome.status}${typeof code === 'string' ? ` ${code}` : ''}`;
  }
  const e = err as { name?: unknown; code?: unknown; cause?: { code?: unknown } } | null;
  const name = typeof e?.name === 'string' ? e.name : typeof err;
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : '';
  return `thrown ${name}${code ? ` ${code}` : ''}`;
}

export class RunRecorder {
  private readonly dispatches = new Map<string, Dispatch[]>();
  private readonly lookups = new Map<string, Lookup[]>();
  private readonly faults = new Map<string, InjectedFault>();

  /** Makes `tool` throw `fault` in run `runId` for its next `fault.times` dispatches. */
  inject(runId: string, tool: string, fault: InjectedFault): void {
    this.faults.set(`${runId}\u0000${tool}`, { ...fault });
  }

  dispatchesOf(runId: string): Dispatch[] {
    return [...(this.dispatches.get(runId) ?? [])];
  }

  lookupsOf(runId: string): Lookup[] {
    return [...(this.lookups.get(runId) ?? [])];
  }

  /** Runs a read (`lookup`, `verify`) of run `runId` and records it with the state it found (`threw` if it threw). */
  private async read<T>(
    runId: string,
    tool: string,
    kind: Lookup['kind'],
    run: () => Promise<[T, string]>,
  ): Promise<T> {
    const l: Lookup = { tool, kind, startMs: Date.now(), endMs: 0, state: 'threw' };
    push(this.lookups, runId, l);
    try {
      const [value, state] = await run();
      l.state = state;
      return value;
    } finally {
      l.endMs = Date.now();
    }
  }

  /** Records an attempt at a tool that does not exist (a baseline dispatches it; the router refuses it first). */
  unknownTool(operationId: string, tool: string, args: unknown): void {
    const now = Date.now();
    push(this.dispatches, runIdOf(operationId), {
      tool,
      args: canonicalize(args),
      credential: 0,
      startMs: now,
      endMs: now,
      failure: 'unknown tool',
    });
  }

  /** Forgets a run (after it was scored). */
  forget(runId: string): void {
    this.dispatches.delete(runId);
    this.lookups.delete(runId);
    for (const k of this.faults.keys()) if (k.startsWith(`${runId}\u0000`)) this.faults.delete(k);
  }

  /** The same tool, its `execute` and `lookup` recorded and its faults injected. */
  instrument(tool: AnyTool): AnyTool {
    const execute = async (args: unknown, ctx: ToolContext) => {
      const runId = runIdOf(ctx.operationId);
      const d: Dispatch = {
        tool: tool.name,
        args: canonicalize(args),
        credential: ctx.credential?.version ?? 0,
        startMs: Date.now(),
        endMs: 0,
      };
      push(this.dispatches, runId, d);
      try {
        const fault = this.faults.get(`${runId}\u0000${tool.name}`);
        if (fault && fault.times > 0) {
          fault.times -= 1;
          return await fault.raise(args, ctx);
        }
        return (await tool.execute(args, ctx)) as unknown;
      } catch (err) {
        d.failure = failureSignature(err);
        throw err;
      } finally {
        d.endMs = Date.now();
      }
    };
    const lookup = tool.lookup
      ? async (operationId: string, ctx: ToolContext, args: unknown) =>
          this.read(runIdOf(operationId), tool.name, 'lookup', async () => {
            const r = await tool.lookup!(operationId, ctx, args);
            return [r, r.state];
          })
      : undefined;
    const verify = tool.verify
      ? async (args: unknown, ctx: ToolContext) =>
          this.read(runIdOf(ctx.operationId), tool.name, 'verify', async () => {
            const r = await tool.verify!(args, ctx);
            return [r, typeof r === 'string' ? r : r.verdict];
          })
      : undefined;
    // defineTool again: the same declaration, so the spec (and the classification inputs) are unchanged.
    const { spec: _spec, ...declaration } = tool;
    return defineTool({ ...declaration, execute, ...(lookup ? { lookup } : {}), ...(verify ? { verify } : {}) });
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
