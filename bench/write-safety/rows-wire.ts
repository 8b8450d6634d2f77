/**
 * The HTTP kinds of issue 35 ("The wire tells the truth") and our own of the same kinds, written and committed before
 * the fix: a redirect answer to a write (RFC 9110 §15.4: it says where to go, not whether the write applied), a
 * redirect that leaves the origin, an unusable 2xx to a committed write, bodies without a bound, and an asynchronous
 * operation whose status flips. Every request of `pay` carries an API key the tool marks secret
 * (bench/write-safety/pay-tools.ts); a request that reaches another origin is a leak (cell.ts). Times in ms.
 */
import type { FaultRow } from './fault-kinds';

const wire = (row: Omit<FaultRow, 'issue' | 'source'>, own = false): FaultRow => ({
  ...row,
  source: own ? 'own' : 'defect',
  issue: 35,
});
const own = (row: Omit<FaultRow, 'issue' | 'source'>): FaultRow => wire(row, true);

export const WIRE_ROWS: readonly FaultRow[] = [
  // Issue 35's samples.
  wire({
    id: 'post-201-truncated-json',
    title: 'committed; 201 application/json whose body is the first half of the JSON',
    post: { kind: 'commit_then_answer', status: 201, body: 'half' },
  }),
  wire({
    id: 'post-201-corrupt-json',
    title: 'committed; 201 application/json whose body is not JSON (single quotes)',
    post: { kind: 'commit_then_answer', status: 201, body: 'corrupt' },
  }),
  wire({
    id: 'post-201-json-as-html',
    title: 'committed; 201 with the JSON body labelled text/html',
    post: { kind: 'commit_then_answer', status: 201, body: 'payment', contentType: 'text/html; charset=utf-8' },
  }),
  wire({
    id: 'post-204-empty',
    title: 'committed; 204 No Content (the output schema expects a payment)',
    post: { kind: 'commit_then_answer', status: 204, body: 'empty' },
  }),
  wire({
    id: 'post-201-empty',
    title: 'committed; 201 with an empty body',
    post: { kind: 'commit_then_answer', status: 201, body: 'empty' },
  }),
  wire({
    id: 'post-302-login',
    title: 'every POST answers 302 Location: /login (an expired SSO session); nothing is committed',
    post: { kind: 'redirect', status: 302, to: 'login', commit: false },
  }),
  wire({
    id: 'post-308-other-origin',
    title: 'every POST answers 308 to another host, which commits what it is sent',
    post: { kind: 'redirect', status: 308, to: 'other_host', commit: false },
  }),
  wire({
    id: 'post-307-loop',
    title: 'every POST commits, then answers 307 to the same URL (a redirect loop in front of the origin)',
    post: { kind: 'redirect', status: 307, to: 'self', commit: true },
  }),
  wire({
    id: 'async-202-failed-then-succeeded',
    title: '202 Accepted; the operation reads "failed", then the provider retries it and it commits at 6 s',
    post: { kind: 'async_failed_then_succeeded', succeedMs: 6_000 },
    quirk: { kind: 'poll_async' },
    // The lookup's "not applied" is final at once (the tool says so): only the rule for accepted writes holds it.
    commit: { settleMs: 0, lookupLagMs: 0 },
  }),
  // Our own, of the same kinds.
  own({
    id: 'post-303-see-other',
    title: 'committed; 303 See Other to /receipts/<id>, which answers 404',
    post: { kind: 'redirect', status: 303, to: 'receipt', commit: true },
  }),
  own({
    id: 'post-307-other-port',
    title: 'every POST answers 307 to the same host on another port (another origin), which commits',
    post: { kind: 'redirect', status: 307, to: 'other_port', commit: false },
  }),
  own({
    id: 'post-307-credentials-in-location',
    title: 'every POST answers 307 to the same origin with user:password@ and a #fragment in Location',
    post: { kind: 'redirect', status: 307, to: 'credentials', commit: false },
  }),
  own({
    id: 'post-201-gzip-bomb',
    title: 'committed; 201 with content-encoding: gzip that inflates to 200 MB',
    post: { kind: 'big_answer', status: 201, bytes: 200_000_000, gzip: true, commit: true },
  }),
  own({
    id: 'post-201-endless-chunked',
    title: 'committed; 201 with a chunked body that never ends (64 KiB at a time)',
    post: { kind: 'big_answer', status: 201, bytes: 'endless', gzip: false, commit: true },
  }),
  own({
    id: 'post-201-content-length-over',
    title: 'committed; 201 with a Content-Length twice the body, then the connection closes',
    post: { kind: 'commit_then_answer', status: 201, body: 'payment', overstate: true },
  }),
  own({
    id: 'post-201-location-no-body',
    title: 'committed; 201 Created with a Location header and no body',
    post: { kind: 'commit_then_answer', status: 201, body: 'empty', headers: { location: '/payments/pay_1' } },
  }),
  own({
    id: 'post-503-50mb-body',
    title: 'every POST answers 503 with a 50 MB body; nothing is committed',
    post: { kind: 'big_answer', status: 503, bytes: 50_000_000, gzip: false, commit: false },
  }),
  own({
    id: 'lookup-302-other-origin',
    title: 'dropped before commit; every lookup is redirected to another host, which answers a payment of its own',
    post: { kind: 'drop_before_commit' },
    read: { kind: 'redirect', to: 'other_host' },
    readPath: true,
  }),
  own({
    id: 'lookup-302-same-origin',
    title: 'committed, answer lost; every lookup is redirected to /v2 on the same origin, which serves it',
    post: { kind: 'commit_then_drop' },
    read: { kind: 'redirect', to: 'same_origin' },
    readPath: true,
  }),
];
