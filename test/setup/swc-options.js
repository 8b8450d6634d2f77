/**
 * How the suite compiles TypeScript with swc, as tsconfig.json does: ES2022, CommonJS with `esModuleInterop`, inline
 * source maps. One place for jest's transform (@swc/jest, jest.config.js) and the child processes' require hook
 * (./swc-register.js). Source: https://swc.rs/docs/configuration/swcrc.
 */
'use strict';
module.exports = {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
