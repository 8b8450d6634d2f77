/**
 * Google APIs through gaxios (googleapis, google-auth-library): a `GaxiosError` carries `response.status`,
 * `response.headers` and `response.data`, whose `error` is Google's error body: `errors[].reason` (the v1 format,
 * `rateLimitExceeded`), `details[].reason` of a `google.rpc.ErrorInfo` and `status` (AIP-193).
 * A reason in the table decides (a 403 `rateLimitExceeded` is a rate limit, not a denial); otherwise the HTTP
 * rules read the answer (a 400 with `errors[].location` gives field issues).
 * Pure: no I/O.
 */
import { asArray, isObjectLike, readNumber, readProp, readString } from '../safe';
import { Dialect, ErrorKind as K, own, rowsFrom, type DialectReader, type DialectRow } from './kinds';

const g = rowsFrom(
  'Google APIs error reasons: Drive/Calendar/YouTube "Resolve errors" guides and AIP-193 (google.aip.dev/193)',
);

/** `errors[].reason` / `ErrorInfo.reason` → row. */
// prettier-ignore
export const GOOGLE_REASONS: Readonly<Record<string, DialectRow>> = Object.freeze({
  rateLimitExceeded: g(K.RATE_LIMITED),
  userRateLimitExceeded: g(K.RATE_LIMITED),
  sharingRateLimitExceeded: g(K.RATE_LIMITED),
  RATE_LIMIT_EXCEEDED: g(K.RATE_LIMITED),
  quotaExceeded: g(K.QUOTA_EXHAUSTED), // a daily or per-project quota: not cured within a run
  dailyLimitExceeded: g(K.QUOTA_EXHAUSTED),
  dailyLimitExceededUnreg: g(K.QUOTA_EXHAUSTED),
  storageQuotaExceeded: g(K.QUOTA_EXHAUSTED),
  backendError: g(K.SERVER_ERROR),
  internalError: g(K.SERVER_ERROR),
  notFound: g(K.NOT_FOUND),
  forbidden: g(K.FORBIDDEN),
  insufficientPermissions: g(K.FORBIDDEN),
  domainPolicy: g(K.FORBIDDEN),
  accessNotConfigured: g(K.FORBIDDEN), // the API is not enabled for the project
  SERVICE_DISABLED: g(K.FORBIDDEN),
  authError: g(K.AUTH_FAILED),
  invalidCredentials: g(K.AUTH_FAILED),
  keyInvalid: g(K.AUTH_FAILED),
  API_KEY_INVALID: g(K.AUTH_FAILED),
  ACCESS_TOKEN_EXPIRED: g(K.CREDENTIAL_EXPIRED),
  conflict: g(K.CONFLICT),
  duplicate: g(K.CONFLICT),
  alreadyExists: g(K.CONFLICT),
  conditionNotMet: g(K.PRECONDITION_FAILED),
});

function reasons(data: unknown): string[] {
  const error = readProp(data, 'error');
  const out: string[] = [];
  for (const e of (asArray(readProp(error, 'errors')) ?? []).slice(0, 16)) {
    const r = readString(e, 'reason');
    if (r) out.push(r);
  }
  for (const d of (asArray(readProp(error, 'details')) ?? []).slice(0, 16)) {
    const r = readString(d, 'reason');
    if (r) out.push(r);
  }
  return out;
}

export const googleReader: DialectReader = {
  dialect: Dialect.GOOGLE,
  read(node, declared) {
    const response = readProp(node, 'response');
    const isGaxios = readString(node, 'name') === 'GaxiosError' || isObjectLike(readProp(node, 'config'));
    if (!isObjectLike(response) || !(isGaxios || declared)) return undefined;
    const status = readNumber(response, 'status');
    if (status === undefined || status < 400) return undefined;
    const data = readProp(response, 'data');
    const http = { status, headers: readProp(response, 'headers') ?? {}, body: data };
    const found = reasons(data).find((r) => own(GOOGLE_REASONS, r) !== undefined);
    const row = own(GOOGLE_REASONS, found);
    const label = `Google API ${found ?? 'error'} (HTTP ${status})`;
    return row ? { dialect: Dialect.GOOGLE, kind: row.kind, label, http } : { dialect: Dialect.GOOGLE, label, http };
  },
};
