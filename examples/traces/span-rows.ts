/**
 * Finished spans as the rows of bench/results/traces.json — `name`, `spanId`, `parentSpanId`, `attributes` and
 * `status: { code }` as OpenTelemetry's SDK has them (0 UNSET, 1 OK, 2 ERROR), with the trace id and the times for
 * drawing — and a trace as an indented tree or a Mermaid flowchart (docs/observability.md shows one).
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

export interface SpanRow {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  /** ms since the epoch, and ms. */
  startMs: number;
  durationMs: number;
}

const ms = ([s, ns]: [number, number]) => s * 1000 + ns / 1e6;

export function spanRows(spans: readonly ReadableSpan[]): SpanRow[] {
  return spans.map((s) => ({
    name: s.name,
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanId ?? null,
    attributes: { ...s.attributes },
    status: s.status.message ? { code: s.status.code, message: s.status.message } : { code: s.status.code },
    startMs: Math.round(ms(s.startTime)),
    durationMs: Math.round(ms(s.duration) * 10) / 10,
  }));
}

/** The spans of `traceId` as a tree, parents first, siblings by start time. */
function walk(rows: readonly SpanRow[], visit: (row: SpanRow, depth: number) => void): void {
  const ids = new Set(rows.map((r) => r.spanId));
  const children = (parent: string | null) =>
    rows
      .filter((r) =>
        parent === null ? r.parentSpanId === null || !ids.has(r.parentSpanId) : r.parentSpanId === parent,
      )
      .sort((a, b) => a.startMs - b.startMs);
  const go = (row: SpanRow, depth: number) => {
    visit(row, depth);
    for (const c of children(row.spanId)) go(c, depth + 1);
  };
  for (const root of children(null)) go(root, 0);
}

const label = (r: SpanRow) => {
  const a = r.attributes;
  const what = [a['error.type'], a['recovery_router.action'], a['recovery_router.reconciled_by']]
    .filter((x) => x !== undefined)
    .join(' · ');
  return `${r.name}${what ? ` [${what}]` : ''}${r.status.code === 2 ? ' ERROR' : ''} ${r.durationMs} ms`;
};

/** An indented text tree of one trace. */
export function treeText(rows: readonly SpanRow[]): string {
  const lines: string[] = [];
  walk(rows, (r, depth) => lines.push(`${'  '.repeat(depth)}${label(r)}`));
  return lines.join('\n');
}

/** A Mermaid flowchart of one trace (left to right, one node per span, ERROR spans outlined in red). */
export function treeMermaid(rows: readonly SpanRow[]): string {
  const lines = ['flowchart LR'];
  const node = new Map<string, string>();
  walk(rows, (r) => {
    const id = `n${node.size + 1}`;
    node.set(r.spanId, id);
    lines.push(`  ${id}["${label(r).replace(/"/g, "'")}"]`);
    const parent = r.parentSpanId === null ? undefined : node.get(r.parentSpanId);
    if (parent) lines.push(`  ${parent} --> ${id}`);
    if (r.status.code === 2) lines.push(`  style ${id} stroke:#c00,stroke-width:2px`);
  });
  return lines.join('\n');
}
