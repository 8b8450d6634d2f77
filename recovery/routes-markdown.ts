/**
 * The route table (recovery/routes.ts) as Markdown, for the README's generated block (scripts/generated-blocks.ts).
 * Node-side documentation only: it stays out of the workflow bundle, which routes with the table itself. Pure.
 */
import { ROUTES } from './routes';

/** The route table as a Markdown table, for the README. */
export function routesMarkdown(): string {
  const lines = ['| row | class | when | action | why |', '|---|---|---|---|---|'];
  ROUTES.forEach((r) => {
    const when: string[] = [];
    if (r.when?.reason) when.push(`reason ∈ {${r.when.reason.join(', ')}}`);
    if (r.when?.retryable !== undefined) when.push(`retryable = ${r.when.retryable}`);
    lines.push(
      `| \`${r.id}\` | \`${r.class}\` | ${when.length ? when.join(' and ') : 'otherwise'} | \`${r.action}\` | ${r.why} |`,
    );
  });
  return lines.join('\n');
}
