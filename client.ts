/**
 * The demo's client entry point: `npm run client -- <command>` runs the operator's command line
 * (operator/cli.ts, the package's `recovery-router` bin) from this checkout:
 *
 *   npm run client -- approvals pending
 *   npm run client -- reviews list
 *   npm run client -- reviews decide <operationId> replay --by ops@example --reason "lookup confirmed not applied"
 *
 * The functions behind it (list and decide approvals and reviews from code) are in operator/, exported by the
 * package's Node entry point.
 */
import { runOperatorCli } from './operator/cli';

export * from './operator';

if (require.main === module) runOperatorCli(process.argv);
