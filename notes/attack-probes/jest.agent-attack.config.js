// Runs notes/attack-probes/agent.attack.test.ts in place (nothing copied into test/).
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }] };
module.exports = {
  rootDir: require("path").resolve(__dirname, "../.."),
  testTimeout: 120_000,
  projects: [
    {
      displayName: 'temporal',
      rootDir: require("path").resolve(__dirname, "../.."),
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/notes/attack-probes/agent.attack.test.ts'],
      moduleNameMapper: {
        '^\\.\\./setup/env$': '<rootDir>/test/setup/env',
        '^\\./harness$': '<rootDir>/test/temporal/harness',
      },
      setupFiles: ['<rootDir>/test/setup/quiet-runtime.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
  ],
};
