/**
 * Builds test/fixtures/secret-corpus.json, the redaction ratchet's corpus (issue 36): every string literal of every
 * version of the redaction tests and attack probes in git history (`git log -- <files>`, all commits), kept when
 * today's `redact` removes something from it, with the words it removes (6 characters or more). The ratchet test
 * (test/unit/redact-ratchet.test.ts) places each text in the channels a server's words take to the model and fails
 * when one of those words comes back: redaction never gets weaker. Run again to grow the corpus (it only adds).
 *
 *   npx ts-node scripts/secret-corpus.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { redact } from '../recovery/redact';

const OUT = 'test/fixtures/secret-corpus.json';
const FILES = [
  'test/unit/redact*.ts',
  'test/unit/fixtures/redact*.ts',
  'notes/attack-probes/*redaction*.ts',
  'test/unit/*leak*.ts',
];

interface Entry {
  /** The text, as a test or probe of the repository had it. */
  text: string;
  /** The words `redact` removed from it when the entry was added (each ≥ 6 characters). */
  secrets: string[];
  /** `<commit>:<path>` where the text was first found. */
  from: string;
}

/** Module specifiers and regular expressions' sources: literals of a test that no server would send. */
const NOT_TEXT = /^\.{1,2}\/|\(\?[:<=!]|\\[dswb]/;

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 1 << 28 });

function literals(source: string): string[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    node.forEachChild(visit);
  };
  visit(file);
  return out;
}

/** The words of `text` (split at spaces, quotes and punctuation that ends a value) that `redacted` lacks. */
function removed(text: string, redacted: string): string[] {
  const words = text.split(/[\s"'`,;()<>{}[\]]+/).filter((w) => w.length >= 6);
  return [...new Set(words.filter((w) => !redacted.includes(w)))];
}

const corpus: Entry[] = existsSync(OUT) ? (JSON.parse(readFileSync(OUT, 'utf8')) as Entry[]) : [];
const known = new Set(corpus.map((e) => e.text));
const commits = git('log', '--all', '--format=%H', '--', ...FILES)
  .trim()
  .split('\n')
  .filter(Boolean);
for (const commit of commits) {
  const paths = git('ls-tree', '-r', '--name-only', commit).split('\n');
  for (const path of paths.filter((p) =>
    FILES.some((f) => new RegExp(`^${f.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`).test(p)),
  )) {
    for (const text of literals(git('show', `${commit}:${path}`))) {
      if (known.has(text) || text.length < 8 || text.length > 2_000 || NOT_TEXT.test(text)) continue;
      const secrets = removed(text, redact(text));
      if (secrets.length === 0) continue;
      known.add(text);
      corpus.push({ text, secrets, from: `${commit.slice(0, 7)}:${path}` });
    }
  }
}
writeFileSync(OUT, `${JSON.stringify(corpus, null, 1)}\n`);
console.log(
  `${corpus.length} texts, ${corpus.reduce((n, e) => n + e.secrets.length, 0)} secrets (${commits.length} commits)`,
);
