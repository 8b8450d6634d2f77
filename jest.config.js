/**
 * Two tiers (docs/development.md, "Tests and CI"): `npm run test:fast` runs `core`; `npm run test:integration` the
 * other four. Five projects:
 * - core: pure unit tests and loopback-HTTP tests; no Temporal server. With them the tests beside the library's
 *   steps in workflows/ and activities/ (`x.test.ts` beside `x.ts`: STYLE.md, "tests beside").
 * - temporal: tests on a real Temporal dev server, started once per run by test/setup/global-setup.ts
 *   (a project-level globalSetup runs only when a test of that project is selected).
 * - dialects: real client libraries against real servers (PostgreSQL, moto, gRPC, loopback SaaS wire formats)
 *   through the real activity; one PostgreSQL, moto and Temporal dev server per run (test/setup/dialects-setup.ts).
 * - unseen: issue 28's held-out cases, client libraries no table names, each against its own server (Debian's
 *   memcached and nats-server, npm's smtp-server and Azurite, or a loopback wire format), started per test file in a
 *   plain Node process (test/unseen/run.ts); a ratchet on test/unseen/known-misses.json. Issue 38's fourth set
 *   (test/unseen4: FTP, SFTP, LDAP, MQTT, AMQP, IMAP, GraphQL, PostgREST and ORM clients and MCP servers against
 *   Debian's pure-ftpd, openssh-server, slapd, mosquitto, rabbitmq-server and dovecot-imapd, embedded PostgreSQL,
 *   server-everything or loopbacks) the same way, with its own test/unseen4/known-misses.json.
 * - desk: the approval desk in a real browser (Debian's chromium driven by playwright-core) against a dev server
 *   (`npm run test:desk`); the same dev server setup as `temporal`.
 */
/**
 * TypeScript through @swc/jest with the suite's swc options (./test/setup/swc-options.js, shared with the child
 * processes' require hook): each file's types stripped, nothing checked (`npm run typecheck` checks them;
 * `isolatedModules` keeps every file transpilable alone), `jest.mock` calls hoisted. The fast tier: 124–140 →
 * 109–113 s of CPU against ts-jest's TypeScript emitter, interleaved runs (`/usr/bin/time npx jest --selectProjects
 * core --no-cache`). An export of a module it compiles is a getter, so a test replaces one with `jest.mock` and
 * `jest.requireActual`, not `jest.spyOn` (test/loopback/one-pass-409.test.ts).
 */
const transform = { '^.+\\.ts$': ['@swc/jest', require('./test/setup/swc-options')] };
/**
 * Test timeouts are hang detectors, never measurements (a test asserts scheduled times, docs/testing.md). Pure and
 * loopback tests get the root's 60 s. Integration tests run servers, worker processes and bundles on 2 shared cores,
 * where a test doing 15 s of CPU took 60 to 110 s of wall time while other jobs ran: 180 s, set by
 * test/setup/integration-timeout.ts (jest-circus reads `testTimeout` from the root config only; a project's own
 * `testTimeout` is ignored), and a test that does more says so.
 */
const integrationTimeout = ['<rootDir>/test/setup/integration-timeout.ts'];
module.exports = {
  testTimeout: 60_000,
  // The slowest files first, from ./test/setup/suite-times.json when jest has no timings of its own (a fresh clone).
  testSequencer: '<rootDir>/test/setup/slowest-first.js',
  projects: [
    {
      displayName: 'core',
      testEnvironment: 'node',
      transform,
      testMatch: [
        '<rootDir>/test/unit/**/*.test.ts',
        '<rootDir>/test/loopback/**/*.test.ts',
        '<rootDir>/workflows/**/*.test.ts',
        '<rootDir>/activities/**/*.test.ts',
      ],
    },
    {
      displayName: 'temporal',
      testEnvironment: 'node',
      transform,
      setupFilesAfterEnv: integrationTimeout,
      testMatch: ['<rootDir>/test/temporal/**/*.test.ts'],
      setupFiles: ['<rootDir>/test/setup/quiet-runtime.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
    {
      displayName: 'desk',
      testEnvironment: 'node',
      transform,
      setupFilesAfterEnv: integrationTimeout,
      testMatch: ['<rootDir>/test/desk/**/*.test.ts'],
      setupFiles: ['<rootDir>/test/setup/quiet-runtime.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
    {
      displayName: 'dialects',
      testEnvironment: 'node',
      transform,
      setupFilesAfterEnv: integrationTimeout,
      testMatch: ['<rootDir>/test/dialects/**/*.test.ts'],
      setupFiles: ['<rootDir>/test/setup/quiet-runtime.ts'],
      globalSetup: '<rootDir>/test/setup/dialects-setup.ts',
      globalTeardown: '<rootDir>/test/setup/dialects-teardown.ts',
    },
    {
      displayName: 'unseen',
      testEnvironment: 'node',
      transform,
      setupFilesAfterEnv: integrationTimeout,
      testMatch: [
        '<rootDir>/test/unseen/**/*.test.ts',
        '<rootDir>/test/unseen4/**/*.test.ts',
        '<rootDir>/test/unseen5/**/*.test.ts',
      ],
    },
  ],
};
