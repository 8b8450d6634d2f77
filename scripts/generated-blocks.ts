/**
 * The tables the docs copy from code, one generator each, and the files that hold them. A block sits between
 * `<!-- <name>:start -->` and `<!-- <name>:end -->` in README.md or a docs/*.md file; `npm run docs:tables` rewrites
 * every block from its generator, and test/unit/generated-blocks.test.ts fails when one is stale.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpFailureSource } from '../activities/mcp/call-error';
import { MCP_ERROR_RULES } from '../activities/mcp/error-rules';
import { debatableMarkdown, paladinMarkdown } from '../bench/eval/paladin/keys';
import { KIND_RULES } from '../recovery/classify/kinds';
import { CONCEPT_KINDS, vocabulary } from '../recovery/classify/words';
import { ROUTES } from '../recovery/routes';

/** Block name → its Markdown. */
export const GENERATORS: Readonly<Record<string, () => string>> = {
  routes: routesMarkdown,
  'mcp-errors': mcpErrorRulesMarkdown,
  paladin: paladinMarkdown,
  debatable: debatableMarkdown,
  vocabulary: vocabularyMarkdown,
  'concept-rows': kindRowsMarkdown,
};

/** The route table (recovery/routes.ts) as Markdown, for the README; the workflow bundle routes with the table itself. */
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

/** The kinds of recovery/classify/kinds.ts: what each means, and how sure a code or words alone make it. */
function kindRowsMarkdown(): string {
  const lines = [
    '| kind | class / reason | said by a code | said by words alone | concepts that say it |',
    '|---|---|---|---|---|',
  ];
  for (const [kind, r] of Object.entries(KIND_RULES)) {
    const transient = r.class === 'transient';
    const code =
      r.phase === 'refused'
        ? transient
          ? 'refused: not processed'
          : 'refused: nothing applied'
        : r.phase === 'maybe'
          ? 'may have been sent'
          : 'returned: a write was applied';
    const words =
      r.phase === 'refused' && !transient
        ? code
        : r.phase === 'returned'
          ? 'a read returned; a write may have been sent'
          : 'may have been sent';
    const concepts = Object.entries(CONCEPT_KINDS)
      .filter(([, k]) => k === kind)
      .map(([c]) => `\`${c}\``)
      .join(', ');
    lines.push(`| \`${kind}\` | \`${r.class}\` / \`${r.reason}\` | ${code} | ${words} | ${concepts} |`);
  }
  return lines.join('\n');
}

/** The table as Markdown, one line per row: the README's copy (a test keeps them identical). */
function mcpErrorRulesMarkdown(): string {
  const lines = ['| # | row | when | answer | source |', '|---|---|---|---|---|'];
  const list = (xs: readonly (string | number)[]) => xs.map((x) => `\`${x}\``).join(', ');
  MCP_ERROR_RULES.forEach((r, i) => {
    const all = [
      r.source && `${r.source === McpFailureSource.RESULT ? 'an `isError` result' : 'thrown'}`,
      r.codes && `JSON-RPC ${list(r.codes)}`,
      r.errorName && `error \`${r.errorName}\``,
      r.session && 'HTTP answer: the session is gone',
    ].filter((x): x is string => typeof x === 'string');
    const any = [
      (r.text || r.concepts) &&
        `words ${r.words ?? (r.text ? `\`${r.text.source}\`` : `concepts ${r.concepts?.join(', ')}`)}`,
      r.errorCodes && `code ${list(r.errorCodes)}`,
      r.categories && `category ${list(r.categories)}`,
      r.statuses && `status ${r.statuses.map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo}–${hi}`)).join(', ')}`,
      r.serverCodes && `the server's \`errors.${r.serverCodes}Codes\``,
    ].filter((x): x is string => typeof x === 'string');
    const when = [...all, ...(any.length ? [any.length === 1 ? any[0]! : `any of: ${any.join('; ')}`] : [])];
    const a = r.answer;
    const answer =
      a.kind === 'class'
        ? `\`${a.class}/${a.reason}\`${a.applied === 'no' ? ', replay-safe' : ''}`
        : `\`transient/${a.reason}\`, ${a.sent.replace('_', ' ')}`;
    lines.push(`| ${i} | \`${r.id}\` | ${when.join(' · ') || 'otherwise'} | ${answer} | ${r.cite} |`);
  });
  return lines.join('\n');
}

/** The vocabulary as a Markdown table (docs/DESIGN.md's copy): concept, its alternatives, its source. */
function vocabularyMarkdown(): string {
  const lines = [
    '| concept | words (any line; every stem of it; `*` a prefix, `=` the whole text) | source |',
    '|---|---|---|',
  ];
  for (const r of vocabulary()) {
    const alts = r.any.map((alt) => alt.join(' + ')).join('; ');
    lines.push(`| \`${r.concept}\` | ${alts} | ${r.source.replace(/\|/g, '\\|')} |`);
  }
  return lines.join('\n');
}

const ROOT = join(__dirname, '..');

/** README.md and every docs/*.md, as paths from the repository root. */
export function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
  return ['README.md', ...docs.map((f) => join('docs', f))];
}

/** The blocks of `text`: name, the text between its markers, and where they are. */
export function blocksOf(text: string): { name: string; body: string; start: number; end: number }[] {
  const out: { name: string; body: string; start: number; end: number }[] = [];
  const re = /<!-- ([a-z0-9-]+):start -->([\s\S]*?)<!-- \1:end -->/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push({ name: m[1]!, body: m[2]!, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** `text` with every block rewritten from its generator. @throws Error naming a block that has none. */
export function regenerated(text: string, file: string): string {
  let out = '';
  let at = 0;
  for (const b of blocksOf(text)) {
    const generate = GENERATORS[b.name];
    if (!generate) throw new Error(`${file}: no generator for the block ${b.name}`);
    // Prettier leaves a generated table as its generator wrote it (prettier-ignore-start/end, Prettier docs "Ignoring
    // Code": Markdown ranges).
    out +=
      `${text.slice(at, b.start)}<!-- ${b.name}:start -->\n<!-- prettier-ignore-start -->\n\n${generate()}\n\n` +
      `<!-- prettier-ignore-end -->\n<!-- ${b.name}:end -->`;
    at = b.end;
  }
  return out + text.slice(at);
}

/** The file's text, read from the repository root. */
export function readDoc(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}
