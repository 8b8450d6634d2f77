/**
 * AWS SDK for JavaScript v3 service errors: `name` is the error code (`NoSuchKey`,
 * `ConditionalCheckFailedException`), `$metadata.httpStatusCode` the status, `$fault` `client` or `server`,
 * `$retryable` the modeled retry trait, `$response` the raw response (headers). A body the SDK could not parse
 * (XML where JSON was expected) reaches the tool as a `SyntaxError` that still carries `$metadata`.
 * Errors without `$metadata.httpStatusCode` (ECONNREFUSED, the SDK's `TimeoutError`) are transport errors: the
 * network rules read them. A name the tables do not list falls to the HTTP rules by its status.
 * Pure: no I/O.
 */
import { asArray, isObjectLike, readNumber, readProp, readString } from '../safe';
import {
  Dialect,
  ErrorKind as K,
  own,
  rowsFrom,
  type DialectFacts,
  type DialectReader,
  type DialectRow,
  type ErrorKind,
} from './kinds';
import { snakeCode } from './names';

const s3 = rowsFrom('Amazon S3 API Reference, "Error responses", List of error codes (ErrorResponses.html)');
const ddb = rowsFrom('Amazon DynamoDB Developer Guide, "Error handling with DynamoDB" (Programming.Errors.html)');
const smithy = rowsFrom(
  '@smithy/service-error-classification: THROTTLING_ERROR_CODES, TRANSIENT_ERROR_CODES, CLOCK_SKEW_ERROR_CODES',
);
const common = rowsFrom('AWS API references, "Common Errors" (CommonErrors.html)');

/** Service error names → row. */
// prettier-ignore
export const AWS_ERRORS: Readonly<Record<string, DialectRow>> = Object.freeze({
  NoSuchKey: s3(K.NOT_FOUND),
  NoSuchBucket: s3(K.NOT_FOUND),
  NoSuchUpload: s3(K.NOT_FOUND),
  NoSuchVersion: s3(K.NOT_FOUND),
  NotFound: s3(K.NOT_FOUND), // HeadObject / HeadBucket 404 (no body)
  PreconditionFailed: s3(K.PRECONDITION_FAILED), // If-Match / If-None-Match
  InvalidObjectState: s3(K.PRECONDITION_FAILED),
  BucketNotEmpty: s3(K.PRECONDITION_FAILED),
  BucketAlreadyExists: s3(K.CONFLICT),
  BucketAlreadyOwnedByYou: s3(K.CONFLICT),
  OperationAborted: s3(K.ABORTED), // a conflicting conditional operation is in progress
  AccessDenied: s3(K.FORBIDDEN),
  AllAccessDisabled: s3(K.FORBIDDEN),
  InvalidAccessKeyId: s3(K.AUTH_FAILED),
  SignatureDoesNotMatch: s3(K.AUTH_FAILED), // the SDK corrects clock skew itself; what remains is a wrong secret
  ExpiredToken: s3(K.CREDENTIAL_EXPIRED),
  InvalidToken: s3(K.CREDENTIAL_EXPIRED),
  TokenRefreshRequired: s3(K.CREDENTIAL_EXPIRED),
  SlowDown: s3(K.RATE_LIMITED),
  ServiceUnavailable: s3(K.UNAVAILABLE),
  InternalError: s3(K.SERVER_ERROR),
  RequestTimeout: s3(K.SERVER_TIMEOUT), // the server stopped reading the request: not processed
  EntityTooLarge: s3(K.INVALID_ARGUMENT),
  EntityTooSmall: s3(K.INVALID_ARGUMENT),
  InvalidArgument: s3(K.INVALID_ARGUMENT),
  InvalidRequest: s3(K.INVALID_ARGUMENT),
  InvalidBucketName: s3(K.INVALID_ARGUMENT),
  InvalidRange: s3(K.INVALID_ARGUMENT),
  KeyTooLongError: s3(K.INVALID_ARGUMENT),
  MalformedXML: s3(K.TOOL_BUG),
  MethodNotAllowed: s3(K.TOOL_BUG),
  MissingContentLength: s3(K.TOOL_BUG),
  NotImplemented: s3(K.UNSUPPORTED),
  ConditionalCheckFailedException: ddb(K.PRECONDITION_FAILED),
  ResourceNotFoundException: ddb(K.NOT_FOUND),
  ResourceInUseException: ddb(K.PRECONDITION_FAILED),
  ValidationException: ddb(K.INVALID_ARGUMENT),
  TransactionConflictException: ddb(K.ABORTED),
  ReplicatedWriteConflictException: ddb(K.ABORTED),
  ItemCollectionSizeLimitExceededException: ddb(K.BUSINESS_RULE),
  IdempotentParameterMismatchException: ddb(K.TOOL_BUG), // a client token reused with other parameters
  DuplicateItemException: ddb(K.CONFLICT),
  InternalServerError: ddb(K.SERVER_ERROR),
  UnrecognizedClientException: ddb(K.AUTH_FAILED),
  AccessDeniedException: ddb(K.FORBIDDEN),
  ExpiredTokenException: ddb(K.CREDENTIAL_EXPIRED),
  BandwidthLimitExceeded: smithy(K.RATE_LIMITED),
  EC2ThrottledException: smithy(K.RATE_LIMITED),
  LimitExceededException: smithy(K.RATE_LIMITED),
  PriorRequestNotComplete: smithy(K.RATE_LIMITED),
  ProvisionedThroughputExceededException: smithy(K.RATE_LIMITED),
  RequestLimitExceeded: smithy(K.RATE_LIMITED),
  RequestThrottled: smithy(K.RATE_LIMITED),
  RequestThrottledException: smithy(K.RATE_LIMITED),
  ThrottledException: smithy(K.RATE_LIMITED),
  Throttling: smithy(K.RATE_LIMITED),
  ThrottlingException: smithy(K.RATE_LIMITED),
  TooManyRequestsException: smithy(K.RATE_LIMITED),
  TransactionInProgressException: smithy(K.RATE_LIMITED),
  RequestTimeoutException: smithy(K.SERVER_TIMEOUT),
  AuthFailure: smithy(K.AUTH_FAILED),
  InvalidSignatureException: smithy(K.AUTH_FAILED),
  RequestExpired: smithy(K.AUTH_FAILED), // clock skew the SDK could not correct
  RequestInTheFuture: smithy(K.AUTH_FAILED),
  RequestTimeTooSkewed: smithy(K.AUTH_FAILED),
  InvalidClientTokenId: common(K.AUTH_FAILED),
  IncompleteSignature: common(K.AUTH_FAILED),
  MissingAuthenticationToken: common(K.AUTH_FAILED),
  OptInRequired: common(K.FORBIDDEN),
  InternalFailure: common(K.SERVER_ERROR),
  ServiceUnavailableException: common(K.UNAVAILABLE),
});

/** DynamoDB `TransactionCanceledException.CancellationReasons[].Code` → kind, strongest first. */
const CANCELLATION_REASONS: readonly (readonly [string, ErrorKind])[] = [
  ['ValidationError', K.INVALID_ARGUMENT],
  ['ConditionalCheckFailed', K.PRECONDITION_FAILED],
  ['ItemCollectionSizeLimitExceeded', K.BUSINESS_RULE],
  ['ThrottlingError', K.RATE_LIMITED],
  ['ProvisionedThroughputExceeded', K.RATE_LIMITED],
  ['RequestLimitExceeded', K.RATE_LIMITED],
  ['TransactionConflict', K.ABORTED],
];

/** The kind of a cancelled DynamoDB transaction: nothing of it was applied (DynamoDB API Reference, TransactWriteItems). */
function cancellationKind(node: unknown): { kind: ErrorKind; reason?: string } {
  const codes = (asArray(readProp(node, 'CancellationReasons')) ?? []).map((r) => readString(r, 'Code'));
  const hit = CANCELLATION_REASONS.find(([code]) => codes.includes(code));
  return hit ? { kind: hit[1], reason: hit[0] } : { kind: K.ABORTED };
}

function quotable(kind: ErrorKind | undefined): boolean {
  return kind === K.INVALID_ARGUMENT || kind === K.PRECONDITION_FAILED || kind === K.BUSINESS_RULE;
}

export const awsReader: DialectReader = {
  dialect: Dialect.AWS,
  read(node) {
    const metadata = readProp(node, '$metadata');
    if (!isObjectLike(metadata)) return undefined;
    const status = readNumber(metadata, 'httpStatusCode');
    const name = readString(node, 'name') ?? '';
    if (status === undefined) return undefined; // a transport error: the network rules read it
    const headers = readProp(readProp(node, '$response'), 'headers') ?? {};
    const message = readString(node, 'message');
    const label = `AWS ${/^[A-Za-z0-9]{1,64}$/.test(name) ? name : 'error'} (HTTP ${status})`;
    if (name === 'SyntaxError') {
      // The SDK could not parse the body: an error status is classified by its status; a 2xx is an unusable result.
      if (status >= 400)
        return { dialect: Dialect.AWS, label, http: { status, headers, body: readProp(node, '$responseBodyText') } };
      return {
        dialect: Dialect.AWS,
        kind: K.INVALID_RESULT,
        label: `AWS response (HTTP ${status}) that is not valid JSON or XML`,
      };
    }
    const http = { status, headers, body: { code: name, ...(message ? { message } : {}) } };
    let kind: ErrorKind | undefined = own(AWS_ERRORS, name)?.kind;
    let reason: string | undefined;
    if (name === 'TransactionCanceledException') ({ kind, reason } = cancellationKind(node));
    const retryable = readProp(node, '$retryable');
    if (kind === undefined && isObjectLike(retryable))
      kind = readProp(retryable, 'throttling') === true ? K.RATE_LIMITED : K.UNAVAILABLE;
    const facts: DialectFacts = {
      dialect: Dialect.AWS,
      label: reason ? `${label}, cancellation reason ${reason}` : label,
      http,
      ...(kind === undefined ? {} : { kind }),
      ...(kind !== undefined && quotable(kind) && message ? { said: message } : {}),
    };
    const code = snakeCode(reason ?? name);
    return code && kind !== K.TOOL_BUG ? { ...facts, code } : facts;
  },
};
