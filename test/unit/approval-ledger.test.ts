/**
 * The approval ledger's rules (workflows/approval-ledger.ts) and the desk's history rows made from it
 * (operator/desk/history.ts): pure, no server. Times are plain numbers (ms since the epoch).
 */
import {
  accept,
  APPROVAL_LEDGER_SIZE,
  closedReason,
  ledger,
  openRequest,
  openRequests,
  refusal,
  revokeRefusal,
  type ApprovalBook,
} from '../../workflows/approval-ledger';
import { historyOfCase, historyOfLedger } from '../../operator/desk/history';
import type { ReviewCase } from '../../workflows/definitions';

const D1 = 'a'.repeat(64);
const D2 = 'b'.repeat(64);
const call = (callId: string, argsDigest = D1) => ({
  callId,
  tool: 'export_report',
  operationId: `wf:${callId}`,
  message: 'HTTP 403',
  argsDigest,
  argsPreview: { month: '11' },
  turn: 1,
});
const grant = (approved: boolean, by = 'ops') => ({ approved, by, signed: false, via: 'update' as const });

test('a waiting request: its own digest counts; another digest, another call id are refused', () => {
  const book: ApprovalBook = new Map();
  const r = openRequest(book, call('c1'), 1_000, 60_000);
  expect(r.view).toMatchObject({ sinceMs: 1_000, expiresAtMs: 61_000, state: 'waiting' });
  expect(refusal(book, { callId: 'c1', argsDigest: D1 })).toBeUndefined();
  expect(refusal(book, { callId: 'c1', argsDigest: D2 })).toBe(
    'argsDigest is not the digest of the waiting call: approve what it shows',
  );
  expect(refusal(book, { callId: 'c9', argsDigest: D1 })).toBe('call "c9" is not waiting for approval');
  expect(revokeRefusal(book, 'c1')).toBe('call "c1" is not approved yet: deny it instead');
});

test('approved (held) → already decided, revocable; used, denied, expired, revoked → refused with the state and its time', () => {
  const book: ApprovalBook = new Map();
  const r = openRequest(book, call('c1'), 0, 60_000);
  accept(r, grant(true), 5_000, 10_000);
  expect(r.view).toMatchObject({ state: 'approved', holdUntilMs: 15_000 });
  expect(refusal(book, { callId: 'c1', argsDigest: D1 })).toBe(
    'call "c1" is already decided (approved by ops; not yet used)',
  );
  expect(revokeRefusal(book, 'c1')).toBeUndefined();
  expect(openRequests(book)).toHaveLength(1);
  r.entry.state = 'used';
  r.entry.usedAtMs = 15_000;
  expect(closedReason(r.entry)).toBe(
    'call "c1" was approved and the approval was used at 1970-01-01T00:00:15.000Z: an approval is used once',
  );
  expect(revokeRefusal(book, 'c1')).toBe(
    'the approval of call "c1" was already used at 1970-01-01T00:00:15.000Z: it cannot be revoked',
  );
  expect(openRequests(book)).toEqual([]);
  expect(closedReason({ ...r.entry, state: 'expired' })).toBe(
    'the approval request of call "c1" expired at 1970-01-01T00:01:00.000Z; it can no longer be decided',
  );
  expect(closedReason({ ...r.entry, state: 'denied' })).toBe('call "c1" is already decided (denied by ops)');
  expect(closedReason({ ...r.entry, state: 'revoked', revoked: { by: 'lead', atMs: 9 } })).toBe(
    'the approval of call "c1" was revoked by lead; it can no longer be decided',
  );
});

test(`the ledger keeps every open request and the last closed ones, ${APPROVAL_LEDGER_SIZE} in all`, () => {
  const book: ApprovalBook = new Map();
  const open = openRequest(book, call('open'), 0, 1);
  for (let i = 0; i < APPROVAL_LEDGER_SIZE + 5; i++) {
    const r = openRequest(book, call(`c${i}`), i, 1);
    r.entry.state = 'expired';
  }
  openRequest(book, call('last'), 999, 1);
  const ids = ledger(book).map((e) => e.callId);
  expect(ids).toHaveLength(APPROVAL_LEDGER_SIZE);
  expect(ids[0]).toBe('open');
  expect(ids.at(-1)).toBe('last');
  expect(open.entry.state).toBe('waiting');
});

test('history rows: one per decision (used once run, approved while held), expiry without a name, revocation with its author', () => {
  const book: ApprovalBook = new Map();
  const used = openRequest(book, call('u'), 0, 100);
  accept(used, grant(true, 'alice'), 10, 0);
  used.entry.state = 'used';
  const held = openRequest(book, call('h'), 0, 100);
  accept(held, grant(true, 'alice'), 11, 50);
  const denied = openRequest(book, call('d'), 0, 100);
  accept(denied, grant(false, 'bob'), 12, 0);
  const expired = openRequest(book, call('e'), 0, 100);
  expired.entry.state = 'expired';
  const revoked = openRequest(book, call('r'), 0, 100);
  accept(revoked, grant(true, 'alice'), 13, 50);
  revoked.entry.state = 'revoked';
  revoked.entry.revoked = { by: 'lead', reason: 'wrong', atMs: 14 };
  const rows = historyOfLedger('wf', ledger(book)).map((h) => [h.subject, h.outcome, h.by ?? '—', h.atMs]);
  expect(rows).toEqual([
    ['u', 'used', 'alice', 10],
    ['h', 'approved', 'alice', 11],
    ['d', 'denied', 'bob', 12],
    ['e', 'expired', '—', 100],
    ['r', 'approved', 'alice', 13],
    ['r', 'revoked', 'lead', 14],
  ]);
});

test('history rows of a review case: its last decision, with the result reference in the reason; none before a decision', () => {
  const c = {
    operationId: 'wf:o1',
    tool: 'issue_refund',
    decision: {
      operationId: 'wf:o1',
      decision: 'mark_applied',
      by: 'alice',
      reason: 'seen in the ledger',
      resultRef: 're_1',
      atMs: 7,
    },
  } as ReviewCase;
  expect(historyOfCase('reconcile:wf:o1', c)).toEqual([
    {
      kind: 'review',
      workflowId: 'reconcile:wf:o1',
      tool: 'issue_refund',
      subject: 'wf:o1',
      outcome: 'mark_applied',
      by: 'alice',
      reason: 'seen in the ledger (result re_1)',
      atMs: 7,
    },
  ]);
  expect(historyOfCase('x', { ...c, decision: undefined } as ReviewCase)).toEqual([]);
});
