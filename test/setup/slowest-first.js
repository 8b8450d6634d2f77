/**
 * Jest's test sequencer for this repository (jest.config.js `testSequencer`): the slowest test files first, so no
 * worker starts a 60 s file while the others are done. Jest's own sequencer orders by the durations of the last run
 * on this machine (its cache) and, without one — every fresh clone, every CI run — by file size, which put the
 * integration tier's slowest files (two-operators, consumer) near the end. Here a file's duration is the cache's when
 * there is one, else the one in ./suite-times.json (seconds of wall time in a fresh-clone `.ci/run` on 2 cores;
 * refresh it with `npx jest --ci --json --outputFile=/tmp/x.json …`, docs/development.md "Tests and CI"); files with a
 * duration run first, longest first, then the rest by size, biggest first. A file that failed last time still runs
 * first (jest's rule).
 */
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const SUITE_SECONDS = require('./suite-times.json');

class SlowestFirst extends Sequencer {
  sort(tests) {
    const size = (t) => t.context.hasteFS.getSize(t.path) ?? 0;
    const ms = (t) => {
      const cached = this.time(t);
      if (cached != null) return cached;
      const seconds = SUITE_SECONDS[relative(t.context.config.rootDir, t.path).split('\\').join('/')];
      return seconds === undefined ? undefined : seconds * 1000;
    };
    const keyed = tests.map((t) => ({ t, failed: this.hasFailed(t), ms: ms(t), size: size(t) }));
    keyed.sort(
      (a, b) =>
        Number(b.failed) - Number(a.failed) ||
        Number(b.ms !== undefined) - Number(a.ms !== undefined) ||
        (b.ms ?? 0) - (a.ms ?? 0) ||
        b.size - a.size,
    );
    for (const k of keyed) k.t.duration = k.ms;
    return keyed.map((k) => k.t);
  }
}

module.exports = SlowestFirst;
