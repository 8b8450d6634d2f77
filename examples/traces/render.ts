/**
 * `ts-node examples/traces/render.ts [scenario] [traces.json]`: one scenario's trace from the file
 * `npm run example:traces` wrote, as an indented tree and as the Mermaid flowchart docs/observability.md shows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { treeMermaid, treeText, type SpanRow } from './span-rows';

const [scenario = 'refund-lost-answer', file = join(__dirname, '..', '..', 'bench', 'results', 'traces.json')] =
  process.argv.slice(2);
const rows = JSON.parse(readFileSync(file, 'utf8')) as SpanRow[];
const root = rows.find(
  (r) => r.name === 'RunWorkflow:agentWorkflow' && String(r.attributes.workflowId).startsWith(`traces-${scenario}-`),
);
if (!root) {
  console.error(`no agentWorkflow trace of ${scenario} in ${file}`);
  process.exit(1);
}
const trace = rows.filter((r) => r.traceId === root.traceId);
console.log(`${treeText(trace)}\n\n\`\`\`mermaid\n${treeMermaid(trace)}\n\`\`\``);
