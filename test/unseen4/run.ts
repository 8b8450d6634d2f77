/**
 * `node -r ./test/setup/swc-register.js test/unseen4/run.ts <library>`: measures one library of the fourth set
 * in a plain Node process and prints its rows as one JSON line (the last line of stdout), as test/unseen/run.ts
 * does and for the same reason (jest's vm context changes what some clients throw).
 */
import { measureLibrary4 } from './measure';

const name = process.argv[2] ?? '';
measureLibrary4(name).then(
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
