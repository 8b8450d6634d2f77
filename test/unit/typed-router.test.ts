/**
 * Typed tools (issue 29): test/types/workflows.ts uses `createToolRouter<typeof tools>()` and marks nine mistakes with
 * `// @ts-expect-error`. Compiled by `tsc` (the TypeScript API) under the strictest settings, it has no error — so
 * each marked line is refused (an unused `@ts-expect-error` is itself error TS2578) — and without the markers it has
 * exactly those nine errors, each on its line. No server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const FIXTURE = join(__dirname, '..', 'types', 'workflows.ts');
const STRICT: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  noEmit: true,
  types: ['node'],
};

/** Every source file parsed so far but the fixture, by path: both programs share the library's and Node's. */
const parsed = new Map<string, ts.SourceFile>();

/** The fixture's own diagnostics (line, code), with its text replaced by `text` when given. */
function fixtureErrors(text?: string): { line: number; code: number }[] {
  const host = ts.createCompilerHost(STRICT);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, version, ...rest) => {
    if (file === FIXTURE)
      return text === undefined ? read(file, version, ...rest) : ts.createSourceFile(file, text, version);
    const source = parsed.get(file) ?? read(file, version, ...rest);
    if (source) parsed.set(file, source);
    return source;
  };
  const program = ts.createProgram([FIXTURE], STRICT, host);
  const source = program.getSourceFile(FIXTURE)!;
  return ts.getPreEmitDiagnostics(program, source).map((d) => ({
    line: source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1,
    code: d.code,
  }));
}

test('typed router: the fixture compiles under strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, node16', () => {
  expect(fixtureErrors()).toEqual([]);
});

test('typed router: without its @ts-expect-error markers, the fixture has one error on each marked line', () => {
  const lines = readFileSync(FIXTURE, 'utf8').split('\n');
  const marked = lines.flatMap((l, i) => (/^\s*\/\/ @ts-expect-error/.test(l) ? [i + 1] : []));
  expect(marked).toHaveLength(9);
  // Each marker becomes an empty comment line, so the line numbers stay.
  const unmarked = lines.map((l) => (/^\s*\/\/ @ts-expect-error/.test(l) ? '//' : l)).join('\n');
  const errors = fixtureErrors(unmarked);
  expect(errors.map((e) => e.line)).toEqual(marked.map((l) => l + 1));
  // 2345: argument not assignable (the name, the arguments); 2339: no such property; 2322: not assignable; 2367: a
  // comparison of types that never overlap (a read's `ended` is only 'ran').
  expect(errors.map((e) => e.code)).toEqual([2345, 2322, 2345, 2339, 2339, 2322, 2339, 2339, 2367]);
});
