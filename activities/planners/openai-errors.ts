/**
 * The errors of the OpenAI-compatible planner (openai.ts): a configuration it cannot use, and a model that did not
 * answer in time.
 */
import { RecoveryError, type CodeOf } from '../../recovery/recovery-error';

export const PlannerConfigErrorCode = {
  MISSING_BASE_URL: 'missing_base_url',
  MISSING_API_KEY: 'missing_api_key',
  MISSING_MODEL: 'missing_model',
  INVALID_OPTION: 'invalid_option',
} as const;
export type PlannerConfigErrorCode = CodeOf<typeof PlannerConfigErrorCode>;

/** The planner cannot be configured (or used with these capabilities). The message never holds the key. */
export class PlannerConfigError extends RecoveryError<PlannerConfigErrorCode> {
  override readonly name = 'PlannerConfigError';
  static override readonly codes: readonly string[] = Object.values(PlannerConfigErrorCode);
}

/**
 * The model did not answer within `timeoutMs`. Named `TimeoutError` (as `AbortSignal.timeout()`'s error), so
 * `classify` reads it as a timeout: transient and retryable for a call without side effects.
 */
export class ModelTimeoutError extends RecoveryError<'model_timeout'> {
  override readonly name = 'TimeoutError';
  static override readonly codes: readonly string[] = ['model_timeout'];
  constructor(
    readonly timeoutMs: number,
    cause: unknown,
  ) {
    super('model_timeout', `the model did not answer within ${timeoutMs} ms`, { cause });
  }
}
