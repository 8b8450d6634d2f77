/**
 * A cell's verdict, from the rows the payments store holds and what each run says about its operations. Pure.
 *
 * An operation is honest when it has exactly one row and says applied, outcome unknown or awaits review, or has no
 * row and says failed, unknown or awaits review. Labels, worst first:
 * - `DUP`: more than one row for one operation (a replay landed beside the first write);
 * - `LOST`: a committed write reported failed (e.g. `unrecoverable/tool_bug`), or a write reported applied that
 *   has no row;
 * - `WEDGED`: a run neither ended nor waited visibly for a person within the row's budget, or a worker did not
 *   finish shutting down within its grace time;
 * - `LEAK`: a planted secret, a stack, a file path or a host reached a history payload or failure (so model text);
 * - `ERR`: the harness itself broke (the cell says nothing about the library);
 * - `ok`; `n/a` for a row whose fault cannot reach the column (a read-path fault where there is no read).
 */
export type Verdict = 'ok' | 'DUP' | 'LOST' | 'WEDGED' | 'LEAK' | 'ERR' | 'n/a';

/**
 * What a run says about one operation: `applied` (ok outcome), `unknown` (a failed outcome of class
 * outcome_unknown), `review` (its reconciliation awaits a person), `failed` (any other failed outcome, or the run
 * failed), `not_reached` (the run ended before the call), `open` (still running, nobody asked).
 */
export type Claim = 'applied' | 'unknown' | 'review' | 'failed' | 'not_reached' | 'open';

export interface OpFacts {
  operationId: string;
  /** Rows in the store for its idempotency key, after held commits drained. */
  rows: number;
  /** POSTs the service received with its idempotency key. */
  posts: number;
  claim: Claim;
  /** What the run said, in a few words (class/reason, reconciled…), for the report. */
  said: string;
}

/** The verdict of one operation (never `LEAK`, `ERR` or `n/a`). */
export function opVerdict(op: Pick<OpFacts, 'rows' | 'claim'>): Verdict {
  if (op.rows > 1) return 'DUP';
  if (op.rows === 1 && (op.claim === 'failed' || op.claim === 'not_reached')) return 'LOST';
  if (op.rows === 0 && op.claim === 'applied') return 'LOST';
  if (op.claim === 'open') return 'WEDGED';
  return 'ok';
}

const RANK: readonly Verdict[] = ['DUP', 'LOST', 'WEDGED', 'LEAK', 'ERR', 'ok', 'n/a'];

/** The worse of verdicts (lower rank first). */
export function worst(verdicts: readonly Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((a, b) => (RANK.indexOf(b) < RANK.indexOf(a) ? b : a), 'ok');
}

export interface CellFacts {
  ops: readonly OpFacts[];
  /** Leaks found in histories (leaks.ts), as short descriptions. */
  leaks: readonly string[];
  /** A worker's `shutdown()` outlived its grace time. */
  shutdownHung?: boolean;
  /** The harness broke: its message. */
  harnessError?: string;
  /** Problems a row found beyond its operations, each starting with its label (`LOST: …`). */
  extra?: readonly string[];
}

/** The cell's label and every problem behind it, worst first. */
export function cellVerdict(c: CellFacts): { verdict: Verdict; problems: string[] } {
  const problems: string[] = [];
  const verdicts: Verdict[] = c.ops.map(opVerdict);
  c.ops.forEach((op, i) => {
    if (verdicts[i] !== 'ok') problems.push(`${verdicts[i]}: ${op.rows} row(s), run said ${op.said}`);
  });
  if (c.shutdownHung) {
    verdicts.push('WEDGED');
    problems.push('WEDGED: worker shutdown outlived its grace time');
  }
  if (c.leaks.length > 0) {
    verdicts.push('LEAK');
    problems.push(...c.leaks.map((l) => `LEAK: ${l}`));
  }
  for (const p of c.extra ?? []) {
    verdicts.push(p.split(':')[0] as Verdict);
    problems.push(p);
  }
  if (c.harnessError !== undefined) {
    verdicts.push('ERR');
    problems.push(`ERR: ${c.harnessError}`);
  }
  const verdict = worst(verdicts);
  return {
    verdict,
    problems: problems.sort(
      (a, b) => RANK.indexOf(a.split(':')[0] as Verdict) - RANK.indexOf(b.split(':')[0] as Verdict),
    ),
  };
}
