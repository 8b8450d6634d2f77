/**
 * The tables the docs copy from code are current: every `<!-- name:start -->` block of README.md and docs/*.md is
 * what its generator writes (scripts/generated-blocks.ts; `npm run docs:tables` rewrites them). No server.
 */
import { blocksOf, GENERATORS, markdownFiles, readDoc, regenerated } from '../../scripts/generated-blocks';

describe('generated blocks of the docs', () => {
  test.each(markdownFiles())('%s: every generated block is current', (file) => {
    const text = readDoc(file);
    expect(regenerated(text, file)).toBe(text);
  });

  test('the route table and the MCP table are in the docs, once each', () => {
    const names = markdownFiles().flatMap((f) => blocksOf(readDoc(f)).map((b) => b.name));
    expect(names.filter((n) => n === 'routes')).toHaveLength(1);
    expect(names.filter((n) => n === 'mcp-errors')).toHaveLength(1);
    expect(names.every((n) => n in GENERATORS)).toBe(true);
  });

  test('a block no generator knows is refused, naming the file and the block', () => {
    expect(() => regenerated('a\n<!-- nope:start -->x<!-- nope:end -->\n', 'X.md')).toThrow(
      'X.md: no generator for the block nope',
    );
  });
});
