/**
 * The matrix's columns: what the `pay` tool declares (bench/write-safety/pay-tools.ts). Deduplicating or not (the
 * payments service deduplicates by `Idempotency-Key` exactly when the tool says so), with or without a `lookup`,
 * with or without a `verify`: all eight combinations. Ids read `D`/`L`/`V` for present and `_` for absent.
 */
export interface Column {
  id: string;
  /** `idempotency.deduplicates`, and the service's dedupe knob. */
  dedup: boolean;
  lookup: boolean;
  verify: boolean;
}

export const COLUMNS: readonly Column[] = [true, false].flatMap((dedup) =>
  [true, false].flatMap((lookup) =>
    [true, false].map((verify) => ({
      id: `${dedup ? 'D' : '_'}${lookup ? 'L' : '_'}${verify ? 'V' : '_'}`,
      dedup,
      lookup,
      verify,
    })),
  ),
);

/** The declaration issue 27's cases use: `deduplicates: false`, a lookup, no verify. */
export const ISSUE_COLUMN = '_L_';

export function columnById(id: string): Column {
  const c = COLUMNS.find((col) => col.id === id);
  if (!c) throw new Error(`unknown column ${id} (known: ${COLUMNS.map((col) => col.id).join(', ')})`);
  return c;
}

/** `pay`'s StartToClose timeout, as issue 27's cases set it, ms. */
export const PAY_START_TO_CLOSE_MS = 3_000;
/** The runs' lookup StartToClose timeout (`reconcile.lookupTimeoutMs`), ms: a lookup is a short read. */
export const LOOKUP_TIMEOUT_MS = 2_000;
