/**
 * `node -r ./test/setup/swc-register.js test/unseen/run.ts <library>`: measures one library in a plain Node
 * process and prints its rows as one JSON line (the last line of stdout). Why a process of its own: jest runs
 * tests in a vm context, where errors raised by Node's own fetch and sockets come from another realm, and client
 * libraries that check `instanceof Error` change what they throw (test/dialects/fixtures/outside-jest.ts). A
 * Temporal worker has no such realm split, and the bench measures the same way.
 */
import { measureLibrary } from './measure';

const name = process.argv[2] ?? '';
measureLibrary(name).then(
  (rows) => {
    process.stdout.write(`\n${JSON.stringify(rows)}\n`);
    // Client libraries may keep sockets or timers; the rows are out.
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
