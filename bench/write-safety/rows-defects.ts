/**
 * The nine defects of issue 27 as fault kinds, and controls the issue says hold today. Item 8 (stacks in history) is
 * not a fault of its own: every cell scans its histories for stacks, paths and hosts, and the rows of items 3 and 4
 * are where the issue found them. Times in ms.
 */
import type { FaultRow } from './fault-kinds';

/** 22 and 43 characters after `SG.`: the shape of a SendGrid API key. */
const SENDGRID_KEY = `SG.${'Xq3vB7nLp2RtY9wZk4HdMa'}.${'f8Jk2LmN4pQr6StUv8WxYz0Ab2Cd4Ef6Gh8Ij0Kl2Mn'}`;
const PASSPHRASE = 'correct-horse-battery-staple';
const ORG_ID = 'org-R4nD0mOrgAbCdEf12345678';
const MASKED_KEY = 'sk-abc12';
const SERVICE_ACCOUNT = 'svc-payments-robot';
const QUOTED_ACCOUNT = 'acct_8812345';
const QUOTED_TOKEN = 'tok_live_9f8e7d6c5b4a';

/** A 503 body as an upstream relays it: a provider key, a passphrase in prose, ids and a quoted errors[].message. */
const SECRET_5XX_BODY = {
  error: `upstream mail relay refused key ${SENDGRID_KEY}; the passphrase is: ${PASSPHRASE}`,
  organization: `${ORG_ID} (key ${MASKED_KEY}…)`,
  detail: `${SERVICE_ACCOUNT}@[redacted] is not allowed to capture payments`,
  errors: [{ message: `Invalid credentials for account ${QUOTED_ACCOUNT} (token ${QUOTED_TOKEN})` }],
};

const API_KEY = 'ak_live_7Hq2Lm9Xz4Pw8Rt3';
const PASSWORD = 'Tr0ub4dor-3-payments';
const RECOVERY_CODE = '4f8k-29dm-x7qp';
const CODE_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

/** A 409 body that carries the conflicting record, and with it nested secrets. */
const SECRET_409_BODY = {
  code: 'payment_conflict',
  message: 'A payment for this invoice already exists.',
  existing: { id: 'pay_conflict_1', api: { key: API_KEY } },
  creds: { user: 'billing', pw: PASSWORD },
  recovery_codes: [RECOVERY_CODE, '7hq2-lm9x-z4pw'],
  oauth: { code_verifier: CODE_VERIFIER },
};

const unsendable = (id: string, title: string, quirk: FaultRow['quirk']): FaultRow => ({
  id,
  title,
  source: 'defect',
  defects: [3, 8],
  post: { kind: 'none' },
  quirk,
});
const nonError = (value: Extract<FaultRow['quirk'], { kind: 'throw' }>['value']): FaultRow =>
  unsendable(`throw-${value.replace('_', '-')}`, `committed, then the tool throws ${value.replace('_', ' ')}`, {
    kind: 'throw',
    value,
  });

export const DEFECT_ROWS: readonly FaultRow[] = [
  {
    id: 'late-commit',
    title: 'the first POST is held 6 s, then commits (the activity timed out at 3 s)',
    source: 'defect',
    defects: [1],
    post: { kind: 'hold_commit', holdMs: 6_000 },
  },
  {
    id: 'lagging-replica',
    title: 'committed, answer lost; reads see commits 2.5 s late',
    source: 'defect',
    defects: [1],
    post: { kind: 'commit_then_drop' },
    read: { kind: 'replica_lag', lagMs: 2_500 },
    readPath: true,
  },
  {
    id: 'not-found-once',
    title: 'committed, answer lost; the first read answers 404, then 200',
    source: 'defect',
    defects: [1],
    post: { kind: 'commit_then_drop' },
    read: { kind: 'not_found_once' },
    readPath: true,
  },
  {
    id: 'worker-shutdown',
    title: 'Worker.shutdown() while the POST is in flight (it commits 1 s later); a second worker takes over',
    source: 'defect',
    defects: [2],
    post: { kind: 'hold_commit', holdMs: 1_000 },
    driver: { kind: 'worker_shutdown' },
  },
  {
    id: 'server-term',
    title: 'the dev server gets SIGTERM while the POST is held (it commits at 6 s); restarted 4 s later',
    source: 'defect',
    defects: [2],
    post: { kind: 'hold_commit', holdMs: 6_000 },
    driver: { kind: 'server_stop', signal: 'SIGTERM', downMs: 4_000 },
    budgetMs: 90_000,
  },
  {
    id: 'server-kill',
    title: 'the dev server gets SIGKILL while the POST is held (it commits at 6 s); restarted 4 s later',
    source: 'defect',
    defects: [2],
    post: { kind: 'hold_commit', holdMs: 6_000 },
    driver: { kind: 'server_stop', signal: 'SIGKILL', downMs: 4_000 },
    budgetMs: 90_000,
  },
  unsendable('result-3mb', 'committed, then the tool returns a 3 MB result', {
    kind: 'return_bytes',
    bytes: 3_000_000,
  }),
  unsendable('result-5mb', 'committed, then the tool returns a 5 MB result', {
    kind: 'return_bytes',
    bytes: 5_000_000,
  }),
  unsendable('result-bigint', 'committed, then the tool returns a BigInt', { kind: 'return_bigint' }),
  unsendable('result-circular', 'committed, then the tool returns a circular object', { kind: 'return_circular' }),
  nonError('null'),
  nonError('undefined'),
  nonError('string'),
  nonError('number'),
  nonError('symbol'),
  nonError('revoked_proxy'),
  nonError('getters'),
  {
    id: 'cause-loop-self',
    title: 'committed, then the tool throws ECONNRESET whose cause is itself',
    source: 'defect',
    defects: [4, 8],
    post: { kind: 'none' },
    quirk: { kind: 'throw_cause_loop', loop: 'self' },
  },
  {
    id: 'cause-loop-pair',
    title: 'committed, then the tool throws ECONNRESET a whose cause b has cause a',
    source: 'defect',
    defects: [4, 8],
    post: { kind: 'none' },
    quirk: { kind: 'throw_cause_loop', loop: 'pair' },
  },
  {
    id: 'outcomes-over-2mb',
    title: 'two payments in one toolPlanWorkflow, each returning 1.2 MB (2.4 MB of outcomes)',
    source: 'defect',
    defects: [5],
    post: { kind: 'none' },
    quirk: { kind: 'return_bytes', bytes: 1_200_000 },
    calls: 2,
  },
  {
    id: 'never-settling-2-slots',
    title: 'two payments commit and never settle on a worker with 2 activity slots; then SIGTERM',
    source: 'defect',
    defects: [6],
    post: { kind: 'none' },
    quirk: { kind: 'hang' },
    driver: { kind: 'slots', slots: 2 },
    runs: 2,
  },
  {
    id: 'secrets-5xx',
    title: 'every POST answers 503 with a provider key, a passphrase, an org id, a masked key and a quoted errors[]',
    source: 'defect',
    defects: [7],
    post: { kind: 'answer', status: 503, body: SECRET_5XX_BODY, every: true },
    secrets: [SENDGRID_KEY, PASSPHRASE, ORG_ID, MASKED_KEY, SERVICE_ACCOUNT, QUOTED_ACCOUNT, QUOTED_TOKEN],
  },
  {
    id: 'secrets-409',
    title: 'the POST answers 409 with nested api.key, creds.pw, recovery_codes and a PKCE code_verifier',
    source: 'defect',
    defects: [7],
    post: { kind: 'answer', status: 409, body: SECRET_409_BODY, every: true },
    secrets: [API_KEY, PASSWORD, RECOVERY_CODE, CODE_VERIFIER],
  },
  {
    id: 'burst-100-lost',
    title: '100 runs at once, each committed with its answer lost, under the default breaker',
    source: 'defect',
    defects: [9],
    post: { kind: 'commit_then_drop' },
    runs: 100,
    budgetMs: 120_000,
  },
];

export const CONTROL_ROWS: readonly FaultRow[] = [
  {
    id: 'hang-after-commit',
    title: 'committed, never answered (the activity times out)',
    source: 'control',
    post: { kind: 'commit_then_hang' },
  },
  {
    id: 'reset-after-commit',
    title: 'committed, then the connection is reset',
    source: 'control',
    post: { kind: 'commit_then_drop' },
  },
  {
    id: 'reset-before-commit',
    title: 'the connection is reset before anything is committed',
    source: 'control',
    post: { kind: 'drop_before_commit' },
  },
  {
    id: 'reads-down',
    title: 'committed, answer lost; every read answers 503',
    source: 'control',
    post: { kind: 'commit_then_drop' },
    read: { kind: 'down' },
  },
];
