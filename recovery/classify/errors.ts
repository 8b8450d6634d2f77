/**
 * The typed error `classify` and its helpers throw for input they cannot use.
 * Pure: no I/O.
 */
import { RecoveryError, type CodeOf } from '../recovery-error';

/** Why a classifier refused its input. A const object plus a type of the same name. */
export const ClassifyErrorCode = {
  /** The `CallContext` fails its schema (names the field). */
  INVALID_CONTEXT: 'invalid_context',
  /** The `RawOutcome` is not an `http` or `thrown` envelope. */
  INVALID_OUTCOME: 'invalid_outcome',
  /** The outcome is a 2xx answer: not a failure, nothing to classify (check with `isFailureOutcome` first). */
  NOT_A_FAILURE: 'not_a_failure',
} as const;
export type ClassifyErrorCode = CodeOf<typeof ClassifyErrorCode>;

/** Bad input to a classifier. `code` says which kind (see `ClassifyErrorCode`). */
export class ClassifyError extends RecoveryError<ClassifyErrorCode> {
  override readonly name = 'ClassifyError';
  static override readonly codes: readonly string[] = Object.values(ClassifyErrorCode);
}
