/**
 * The README and the guides link to files and headings that exist: every relative Markdown link `[text](path#anchor)`
 * in README.md and docs/*.md names a file of the repository, and an anchor names a heading of that file (GitHub's
 * heading ids: lower case, punctuation but `-` and `_` dropped, spaces as `-`, repeats suffixed `-1`, `-2`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The ids GitHub gives a Markdown file's headings (code blocks skipped). */
function headingIds(text: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** `[text](target)` links outside code blocks and inline code, with their file. */
function links(file: string): { file: string; target: string }[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ file, target: m[1]! }));
}

test('docs: every relative link of README.md and docs/*.md names an existing file and heading', () => {
  const broken: string[] = [];
  const all = FILES.flatMap(links).filter((l) => !/^[a-z]+:/.test(l.target));
  expect(all.length).toBeGreaterThan(50);
  for (const { file, target } of all) {
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const resolved = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), path));
    if (!existsSync(join(ROOT, resolved))) {
      broken.push(`${file}: ${target} (no file ${resolved})`);
    } else if (anchor !== undefined && resolved.endsWith('.md')) {
      if (!headingIds(readFileSync(join(ROOT, resolved), 'utf8')).has(anchor)) broken.push(`${file}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
});

test('docs: the README stays short (at most 260 lines) and every guide is linked from it', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  expect(readme.split('\n').length).toBeLessThanOrEqual(260);
  const guides = FILES.filter((f) => f.startsWith('docs/') && f !== 'docs/DESIGN.md');
  expect(guides.filter((g) => !readme.includes(`](${g})`))).toEqual([]);
});
