/**
 * Issue 38's fourth held-out set: client libraries and protocol families that no file of this repository named
 * when it was written (FTP reply codes, SFTP status codes, LDAP result codes, MQTT 5 reason codes, AMQP 0-9-1 reply
 * codes, IMAP response codes, GraphQL `extensions.code`, PostgREST's SQLSTATE-bearing errors, ORM error names), and
 * issue 38's MCP cases (JSON-RPC -32602, the SDK's request timeout). Each case runs through its official client
 * against a real server (or a loopback speaking the documented wire format) and the real activity, as the first set
 * does (test/unseen: the case, route and loopback shapes are shared).
 *
 * Each expectation also says what a miss of it costs (`harm`), as issue 38 defines it, so the report can be
 * computed per harm.
 */
import type { Expected, Got } from '../unseen/cases';

/**
 * What a miss of a case costs (issue 38, "Misses by harm"):
 * - `unsafe`: a write that may have committed could be resent, a failure could pass as success, or a call could
 *   loop;
 * - `costly`: a person is paged (escalate, reconcile's review) for what a route could do on its own, or the route
 *   taken cannot work;
 * - `mild`: the action is right and only the class differs.
 */
export type Harm = 'unsafe' | 'costly' | 'mild';

/**
 * An expectation of this set: `harm` is the stake of the case, what its miss would cost, judged from the
 * expectation alone (a write that may have committed: unsafe; a route that needs no person: costly; a route that
 * goes to a person anyway: mild).
 */
export interface Expected4 extends Expected {
  harm: Harm;
}

/** Expected table of one library: case id → expectation. */
export type ExpectedTable4 = Readonly<Record<string, Expected4>>;

/**
 * The harm a miss actually did: `unsafe` when a write the expectation says may have committed is now replay-safe
 * (it may be resent), or the identical call is retried where the expectation says it fails the same way again (a
 * loop the Change-before-Retry gate exists to stop); `mild` when the action is right; `costly` otherwise. Pure.
 */
export function harmOfMiss(expected: Omit<Expected, 'source'>, got: Got, effect: 'read' | 'write'): Harm {
  if (effect === 'write' && expected.applied === 'maybe' && got.applied === 'no') return 'unsafe';
  if (got.action === 'retry' && expected.class !== 'transient') return 'unsafe';
  return got.action === expected.action ? 'mild' : 'costly';
}
