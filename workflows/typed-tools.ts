/**
 * Tools' types in workflow code (docs/workflows.md, "Typed tools"): from `typeof tools` — a module of `defineTool`
 * results imported as a type only, an object or an array of them — the names, the input each takes and the output
 * it returns, as `proxyActivities<typeof activities>()` gives an activity's. No tool code enters a workflow bundle:
 * these are types, erased at compile time.
 *
 *   import type * as tools from './tools';
 *   const router = createToolRouter<typeof tools>();
 *   const out = await router.callTool('check_inventory', { sku: 'desk-1' }); // out.value: { sku, units } when ok
 *
 * Types only. Sandbox-safe.
 */
import type { z } from 'zod';

/** What the types read of a tool: `defineTool`'s result (activities/define-tool.ts), by its shape. */
export interface ToolShape {
  readonly name: string;
  readonly input: z.ZodType;
  readonly output: z.ZodType;
  readonly spec: object;
}

/** The tools in `T`: the members of an array, or the values of a module or object that are tools. */
export type ToolsIn<T> = Extract<T extends readonly (infer U)[] ? U : T[keyof T], ToolShape>;
/** The names of the tools in `T`. */
export type ToolName<T> = ToolsIn<T>['name'];
/** The tool named `N` in `T`. */
export type ToolNamed<T, N extends string> = Extract<ToolsIn<T>, { readonly name: N }>;
/** What `callTool` takes as the arguments of tool `N`: its input schema's input type. */
export type ToolInput<T, N extends string> = z.input<ToolNamed<T, N>['input']>;
/** What a successful `callTool` of tool `N` returns as `value`: its output schema's output type. */
export type ToolOutput<T, N extends string> = z.output<ToolNamed<T, N>['output']>;
/** Tool `N`'s effect as `defineTool` declared it: `'read'` or `'write'` (both when not known). */
export type ToolEffect<T, N extends string> =
  ToolNamed<T, N> extends { readonly effect: infer E extends 'read' | 'write' } ? E : 'read' | 'write';
