/**
 * The one base of the library's errors (docs/DESIGN.md, "Errors"): every error the library throws for a caller's
 * mistake or a refused operation is a `RecoveryError` with a `code` (a lower-case snake_case string, unique across
 * the library, so a code names its class) and a `name` (the class's name, kept for logs and `err.name` checks).
 *
 * Realm-safe guard: Temporal runs workflow code in its own V8 context, so an error made there is not `instanceof`
 * a class of the Node side (and the other way round). Every `RecoveryError` carries the registered symbol
 * `Symbol.for('recovery-router.error')` (the global symbol registry is shared by every realm of an agent:
 * ECMAScript, "Symbol.for"), which `isRecoveryError` and the classes' static `is` check instead of the prototype.
 *
 * Total: a value whose reads throw (a Proxy, a getter) is not one. Pure and sandbox-safe: no imports.
 */

/** The brand every `RecoveryError` carries, `true`. Registered, so the same symbol in every realm. */
export const RECOVERY_ERROR_BRAND: unique symbol = Symbol.for('recovery-router.error');

/** The values of a code object (`{ INVALID_INPUT: 'invalid_input', … } as const`) as a union type. */
export type CodeOf<T extends Readonly<Record<string, string>>> = T[keyof T];

/**
 * True for a `RecoveryError`, also one made in another realm (where `instanceof` fails), and, when `code` is given,
 * only for one whose `code` is it (or one of them).
 * @param code a code, or the codes of a class (`RecoveryInputError.codes`).
 */
export function isRecoveryError(e: unknown, code?: string | readonly string[]): e is RecoveryError {
  if (typeof e !== 'object' || e === null) return false;
  let brand: unknown;
  let own: unknown;
  try {
    // Anything may be thrown: a Proxy, a revoked one or a getter that throws is not a RecoveryError.
    const branded = e as { [RECOVERY_ERROR_BRAND]?: unknown; code?: unknown };
    brand = branded[RECOVERY_ERROR_BRAND];
    own = branded.code;
  } catch {
    return false;
  }
  if (brand !== true || typeof own !== 'string') return false;
  if (code === undefined) return true;
  return typeof code === 'string' ? own === code : code.includes(own);
}

/**
 * The base class. A subclass sets its `name` (a string literal) and `static codes` (every code its instances may
 * carry), and narrows `C` to its code union; the constructor is usually inherited:
 *
 *   class ClassifyError extends RecoveryError<ClassifyErrorCode> {
 *     override readonly name = 'ClassifyError';
 *     static override readonly codes = Object.values(ClassifyErrorCode);
 *   }
 */
export class RecoveryError<C extends string = string> extends Error {
  override readonly name: string = 'RecoveryError';
  /** What kind of error it is: lower-case snake_case, unique across the library's classes. */
  readonly code: C;
  /** See `RECOVERY_ERROR_BRAND`. */
  readonly [RECOVERY_ERROR_BRAND] = true;
  /** The codes of this class's instances; `undefined` on `RecoveryError` itself (any code). */
  static readonly codes: readonly string[] | undefined = undefined;

  /** @param options.cause set as `cause` only when given (so `'cause' in err` is false without one). */
  constructor(code: C, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }

  /**
   * True for an instance of this class, also from another realm: the brand, and a `code` among `this.codes`
   * (`RecoveryError.is(e)`: any `RecoveryError`). Call it on the class (`ConfigError.is(err)`), not detached.
   */
  static is<T>(this: { readonly codes: readonly string[] | undefined; readonly prototype: T }, e: unknown): e is T {
    return isRecoveryError(e, this.codes);
  }
}
