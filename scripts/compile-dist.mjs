#!/usr/bin/env node
// The package's two tsc passes in one program (part of `npm run build`): what
// `tsc -p tsconfig.build.json && tsc -p tsconfig.build.json --declaration --emitDeclarationOnly --removeComments false`
// wrote, the same bytes, with one parse and one type check instead of two (each pass was about 17 s of CPU, most of
// it the check). The program is created and checked with the declaration pass's options (the checker reads
// `declaration` while it checks: an exported alias's visibility, TypeScript's checker.ts `collectLinkedAliases`) and
// emits the declarations with their comments; then, on the same options object, which the emitter reads when it emits
// (emitter.ts, `emitFiles`), the JavaScript without comments (the source maps carry the sources). Reports
// diagnostics as tsc does and exits 1 on any error (tsc exits 1 or 2).
import ts from 'typescript';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const formatHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => ts.sys.newLine,
};
// As tsc prints them: on stdout, with colour and context on a terminal.
const print = (diagnostics) =>
  process.stdout.write(
    (process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics)(diagnostics, formatHost),
  );
const fail = (diagnostics) => {
  print(diagnostics);
  process.exit(1);
};

const parsed = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.build.json'),
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) },
);
const options = parsed.options;
const passes = {
  declarations: { declaration: true, emitDeclarationOnly: true, removeComments: false },
  javascript: { declaration: false, emitDeclarationOnly: false, removeComments: true },
};
Object.assign(options, passes.declarations);
const program = ts.createProgram({
  rootNames: parsed.fileNames,
  options,
  projectReferences: parsed.projectReferences,
  configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
});
// tsc's order (executeCommandLine.ts, emitFilesAndReportErrors): semantic diagnostics only when the rest are clean.
const diagnostics = [...program.getConfigFileParsingDiagnostics(), ...program.getSyntacticDiagnostics()];
if (diagnostics.length === 0) {
  diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
  if (diagnostics.length === 0) diagnostics.push(...program.getSemanticDiagnostics());
}
diagnostics.push(...program.emit().diagnostics);
Object.assign(options, passes.javascript);
diagnostics.push(...program.emit().diagnostics);
if (diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error)) fail(diagnostics);
if (diagnostics.length > 0) print(diagnostics);
