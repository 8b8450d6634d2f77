// Flat ESLint config. Gates: no floating promises, type-only imports, eqeqeq, and the sandbox rule:
// workflows/ and recovery/ run inside Temporal's workflow sandbox, so they import no Node built-ins and no
// Node-side Temporal packages; recovery/ also has no clock and no randomness of its own. Library code has no
// function over 80 lines (blank and comment lines not counted) and no file over 300 lines (every line, as `wc -l`).
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const CORE_NO_CLIENTS =
  "The core reads client libraries' errors by shape (recovery/classify/dialects); it imports none.";
const clientLibraries = [
  'pg',
  'mysql2',
  'better-sqlite3',
  'mongodb',
  'ioredis',
  'redis',
  'stripe',
  'gaxios',
  'googleapis',
  'openai',
  'axios',
];
/** Node-side library code: activities, the plugin, config, the dev server, the operator CLI and their entry files. */
const nodeLibraryFiles = [
  'activities/**/*.ts',
  'plugin/**/*.ts',
  'config/**/*.ts',
  'server/**/*.ts',
  'operator/**/*.ts',
  'index.ts',
  'openai.ts',
  'mcp.ts',
  'metrics.ts',
  'ai-sdk.ts',
  'openai-agents.ts',
];
/** Code that runs inside Temporal's workflow sandbox, and its entry files. */
const sandboxFiles = [
  'workflows/**/*.ts',
  'recovery/**/*.ts',
  'workflow.ts',
  'types.ts',
  'ai-sdk-workflow.ts',
  'openai-agents-workflow.ts',
];
/** The command entry files (`npm start`, the worker and the client); the first two are the demo's own. */
const commandFiles = ['examples/agent-demo/main.ts', 'worker.ts', 'client.ts'];
/** Library code (what the package ships) never imports the demo's code. */
const noDemoImports = {
  group: ['**/examples', '**/examples/**'],
  message: 'Library code never imports examples/ (demo code, not in the package).',
};
const sandboxRestrictedImports = {
  paths: [
    ...nodeBuiltins.map((name) => ({
      name,
      message: 'Node built-ins are not available in the Temporal workflow sandbox.',
    })),
    ...clientLibraries.map((name) => ({ name, message: CORE_NO_CLIENTS })),
  ],
  patterns: [
    { group: ['node:*'], message: 'Node built-ins are not available in the Temporal workflow sandbox.' },
    {
      group: ['@temporalio/activity', '@temporalio/worker', '@temporalio/client', '@temporalio/testing'],
      message: 'Node-side Temporal packages must not be imported where the workflow sandbox runs.',
    },
    {
      group: ['@prisma/*', '@redis/*', '@grpc/*', '@aws-sdk/*', '@smithy/*', '@anthropic-ai/*', 'mysql2/*', 'openai/*'],
      message: CORE_NO_CLIENTS,
    },
    {
      group: ['**/activities', '**/activities/**', '**/server/**', '**/config/load*'],
      message: 'Node-side project code must not enter the workflow bundle.',
      allowTypeImports: true,
    },
    noDemoImports,
  ],
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'coverage/**',
      '.temporal/**',
      '.moto/**',
      '.baseline/**',
      'bench/results/**',
      'docs/api/**',
      'notes/**',
      // test/temporal/observability-snippet.test.ts's scratch project (the lint runs beside the integration tier).
      '.snippet-*/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: nodeLibraryFiles,
    rules: { 'no-restricted-imports': ['error', { patterns: [noDemoImports] }] },
  },
  {
    files: sandboxFiles,
    rules: { 'no-restricted-imports': ['error', sandboxRestrictedImports] },
  },
  {
    // Function and file length (issue 11): small functions and files, one concern each.
    files: [...nodeLibraryFiles, ...sandboxFiles, ...commandFiles],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 300 }],
    },
  },
  {
    // The protocols' code tables: one table per standard, a row per code; a table is long, not its functions
    // (STYLE.md: "cap functions; let a table … be long"). A new protocol is one table there and its test.
    files: ['recovery/classify/protocols/tables.ts'],
    rules: { 'max-lines': 'off' },
  },
  {
    files: ['recovery/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'recovery/ has no clock: take nowMs as a parameter.' },
        { object: 'Math', property: 'random', message: 'recovery/ has no randomness: take random as a parameter.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'recovery/ has no clock: take nowMs as a parameter.',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // A test beside a library file (workflows/router/x.test.ts) runs in jest on Node, never in the sandbox or the
    // package: the sandbox's import ban and the library's length caps are for the file it tests, not for it.
    files: ['workflows/**/*.test.ts', 'activities/**/*.test.ts'],
    rules: {
      'no-restricted-imports': 'off',
      'max-lines': 'off',
      'max-lines-per-function': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
