/**
 * The typed error `classify` and its helpers throw for input they cannot use.
 * Pure: no I/O.
 */

/** Why a classifier refused its input. A const object plus a type of the same name. */
export const ClassifyErrorCode = {
  /** The `CallContext` fails its schema (names the field). */
  INVALID_CONTEXT: 'invalid_context',
  /** The `RawOutcome` is not an `http` or `thrown` envelope. */
  INVALID_OUTCOME: 'invalid_outcome',
  /** The outcome is a 2xx answer: not a failure, nothing to classify (check with `isFailureOutcome` first). */
  NOT_A_FAILURE: 'not_a_failure',
} as const;
export type ClassifyErrorCode = (typeof ClassifyErrorCode)[keyof typeof ClassifyErrorCode];

const BRAND = Symbol.for('recovery-router.ClassifyError');

/** Bad input to a classifier. `code` says which kind (see `ClassifyErrorCode`). */
export class ClassifyError extends Error {
  override readonly name = 'ClassifyError';
  readonly code: ClassifyErrorCode;
  /** Brand for `isClassifyError`, which works across realms (Temporal's sandbox), where `instanceof` fails. */
  readonly [BRAND] = true;
  constructor(code: ClassifyErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** True for a `ClassifyError`, also one created in another realm. */
export function isClassifyError(e: unknown): e is ClassifyError {
  return typeof e === 'object' && e !== null && (e as { [BRAND]?: unknown })[BRAND] === true;
}
