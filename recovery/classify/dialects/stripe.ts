/**
 * Stripe errors as stripe-node raises them: `type` is the class (`StripeCardError`), `rawType` the API's error type
 * (`card_error`), `raw` the error body, flat fields `code`, `decline_code`, `param`, `statusCode`, `headers`; a
 * `StripeConnectionError` carries the socket error in `detail`, not `cause`.
 * Card errors keep their business code (`decline_code`, else `code`: `insufficient_funds` →
 * `InsufficientFundsError`). An idempotency error (a key reused with other parameters) is a bug in the tool.
 * Other API errors go to the HTTP rules with `raw` as the body (its `param` becomes a field issue).
 * Pure: no I/O.
 */
import { transportFacts } from '../network';
import { isObjectLike, readNumber, readProp, readString } from '../safe';
import { ErrorKind as K, own, rowsFrom, type CodeFacts, type CodeRow } from '../kinds';
import type { DialectReader } from '../protocols';

const st = rowsFrom(
  'Stripe API docs, "Errors" and "Error handling" (docs.stripe.com/api/errors, /error-handling); stripe-node src/Error.ts',
);

/** stripe-node error classes whose meaning the HTTP status does not carry. */
// prettier-ignore
export const STRIPE_CLASSES: Readonly<Record<string, CodeRow>> = Object.freeze({
  StripeCardError: st(K.BUSINESS_RULE), // 402: the card was declined; another card or amount may pass
  StripeIdempotencyError: st(K.TOOL_BUG), // the idempotency key was reused with other parameters
  StripeSignatureVerificationError: st(K.TOOL_BUG), // a webhook verified with the wrong secret or payload
  StripeInvalidGrantError: st(K.AUTH_FAILED), // OAuth: the authorization code or refresh token is invalid
  StripeInvalidClientError: st(K.AUTH_FAILED),
  StripeInvalidScopeError: st(K.FORBIDDEN),
  StripeUnsupportedGrantTypeError: st(K.TOOL_BUG),
  StripeUnsupportedResponseTypeError: st(K.TOOL_BUG),
  StripeOAuthInvalidRequestError: st(K.INVALID_ARGUMENT),
});

/** Stripe v2 API error types (`raw.type`) → row. */
// prettier-ignore
export const STRIPE_V2_TYPES: Readonly<Record<string, CodeRow>> = Object.freeze({
  already_canceled: st(K.CONFLICT),
  not_cancelable: st(K.PRECONDITION_FAILED),
  blocked_by_stripe: st(K.FORBIDDEN),
  cannot_proceed: st(K.PRECONDITION_FAILED),
  capability_not_enabled: st(K.UNSUPPORTED),
  feature_not_enabled: st(K.UNSUPPORTED),
  controlled_by_alternate_resource: st(K.PRECONDITION_FAILED),
  financial_account_not_open: st(K.PRECONDITION_FAILED),
  fx_quote_needs_refresh: st(K.PRECONDITION_FAILED),
  insufficient_funds: st(K.BUSINESS_RULE),
  invalid_payment_method: st(K.BUSINESS_RULE),
  invalid_payout_method: st(K.BUSINESS_RULE),
  invalid_vaulted_credential: st(K.BUSINESS_RULE),
  quota_exceeded: st(K.QUOTA_EXHAUSTED),
  rate_limit: st(K.RATE_LIMITED),
  recipient_not_notifiable: st(K.BUSINESS_RULE),
  temporary_session_expired: st(K.CREDENTIAL_EXPIRED),
  verification_attempt_failed: st(K.BUSINESS_RULE),
  verification_expired: st(K.PRECONDITION_FAILED),
  verification_not_initiated: st(K.PRECONDITION_FAILED),
});

/** A `StripeConnectionError`: its `detail` (the socket error) says whether the request left. */
function connectionFacts(node: unknown): CodeFacts {
  const facts = transportFacts(readProp(node, 'detail')).filter((f) => f.rule.kind === 'network');
  const timeout =
    facts.some((f) => f.rule.reason === 'timeout') || /\btimeout\b/i.test(readString(node, 'message') ?? '');
  const notSent = facts.length > 0 && facts.every((f) => f.sent === 'not_sent');
  const label = `Stripe connection error${facts[0] ? ` (${facts[0].label})` : ''}`;
  if (notSent) return { dialect: 'stripe', kind: timeout ? K.CONNECT_TIMEOUT : K.NOT_SENT, label, sent: 'not_sent' };
  return { dialect: 'stripe', kind: timeout ? K.CLIENT_TIMEOUT : K.CONNECTION_LOST, label };
}

function businessCode(node: unknown): string | undefined {
  const c = readString(node, 'decline_code') || readString(node, 'code');
  // A plain word of at most 40 characters, as the router names a value (./schema-words.ts `PLAIN_VALUE`): longer, it
  // stays in the fenced `serverSaid` (docs/DESIGN.md, "Whose words reach the model").
  return c && /^[a-z][a-z0-9_]{0,39}$/.test(c) ? c : undefined;
}

export const stripeReader: DialectReader = {
  dialect: 'stripe',
  read(node, declared) {
    const type = readString(node, 'type') ?? '';
    const raw = readProp(node, 'raw');
    if (!(type.startsWith('Stripe') && isObjectLike(raw)) && !(declared && isObjectLike(raw))) return undefined;
    if (type === 'StripeConnectionError') return connectionFacts(node);
    const status = readNumber(node, 'statusCode');
    const http = status === undefined ? undefined : { status, headers: readProp(node, 'headers') ?? {}, body: raw };
    const rawType = readString(raw, 'type') ?? '';
    const row = own(STRIPE_CLASSES, type) ?? own(STRIPE_V2_TYPES, rawType);
    const code = businessCode(node);
    const label = `Stripe ${/^[A-Za-z]{1,64}$/.test(type) ? type : 'error'}${code ? ` ${code}` : ''}${status ? ` (HTTP ${status})` : ''}`;
    if (!row) return http ? { dialect: 'stripe', label, http, ...(code ? { code } : {}) } : undefined;
    const message = readString(node, 'message');
    return {
      dialect: 'stripe',
      kind: row.kind,
      label,
      ...(http ? { http } : {}),
      ...(code && row.kind !== K.TOOL_BUG ? { code } : {}),
      ...(row.kind === K.BUSINESS_RULE && message ? { said: message } : {}),
    };
  },
};
