/**
 * The integration tier's hang detector (jest.config.js): 180 s per test and hook, for every test file of the
 * projects temporal, desk, dialects and unseen. jest-circus takes `testTimeout` from the root config only, so each
 * integration project sets it here, a setup file run after the test framework is installed (Jest docs,
 * "jest.setTimeout": call it in setupFilesAfterEnv to apply it to every test of a project).
 */
jest.setTimeout(180_000);
