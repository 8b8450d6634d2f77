/**
 * The transport tables of classify/network.ts: error `code` → rule, error `name` → rule, message patterns, and
 * the syscalls that tell a connect from a read or write. Each rule says whether the request may have been sent
 * (docs/DESIGN.md, "Phases"), the reason, and the kind (network, TLS, the tool's own bug). Sources: Node's
 * system errors (https://nodejs.org/api/errors.html#common-system-errors) and undici's errors. Pure.
 */

/** When a transport error happened relative to sending. */
export const SendState = {
  /** Nothing left the process. */
  NOT_SENT: 'not_sent',
  /** The request may have reached the server. */
  MAYBE_SENT: 'maybe_sent',
  /** Decided by the error's `syscall`: `connect`/`getaddrinfo` → not sent, else maybe sent. */
  BY_SYSCALL: 'by_syscall',
  /** Not sent unless the `syscall` is a read or write on an open socket. */
  CONNECT_UNLESS_IO: 'connect_unless_io',
} as const;
export type SendState = (typeof SendState)[keyof typeof SendState];

/** What a recognised transport fact means. */
export type TransportKind = 'network' | 'tls' | 'tool_bug';
export interface TransportRule {
  readonly sent: SendState;
  readonly reason: 'network' | 'timeout';
  readonly kind: TransportKind;
}

const S = SendState;
/** A frozen rule (`kind` network unless given). */
export const rule = (sent: SendState, reason: 'network' | 'timeout', kind: TransportKind = 'network'): TransportRule =>
  Object.freeze({ sent, reason, kind });

/** Error `code` → rule. Node system errors, undici `UND_ERR_*`, axios/got codes, TLS and client-argument errors. */
export const CODE_RULES: Readonly<Record<string, TransportRule>> = Object.freeze({
  ECONNREFUSED: rule(S.NOT_SENT, 'network'),
  ENOTFOUND: rule(S.NOT_SENT, 'network'),
  EAI_AGAIN: rule(S.NOT_SENT, 'network'),
  EAI_NONAME: rule(S.NOT_SENT, 'network'),
  EAI_FAIL: rule(S.NOT_SENT, 'network'),
  EAI_NODATA: rule(S.NOT_SENT, 'network'),
  EADDRNOTAVAIL: rule(S.NOT_SENT, 'network'),
  UND_ERR_CONNECT_TIMEOUT: rule(S.NOT_SENT, 'timeout'),
  ERR_SOCKET_CONNECTION_TIMEOUT: rule(S.NOT_SENT, 'timeout'),
  EHOSTUNREACH: rule(S.CONNECT_UNLESS_IO, 'network'),
  ENETUNREACH: rule(S.CONNECT_UNLESS_IO, 'network'),
  EHOSTDOWN: rule(S.CONNECT_UNLESS_IO, 'network'),
  ENETDOWN: rule(S.CONNECT_UNLESS_IO, 'network'),
  ETIMEDOUT: rule(S.BY_SYSCALL, 'timeout'),
  ECONNRESET: rule(S.BY_SYSCALL, 'network'),
  EPIPE: rule(S.MAYBE_SENT, 'network'),
  ECONNABORTED: rule(S.MAYBE_SENT, 'timeout'), // axios: request timeout
  ESOCKETTIMEDOUT: rule(S.MAYBE_SENT, 'timeout'),
  ERR_STREAM_PREMATURE_CLOSE: rule(S.MAYBE_SENT, 'network'),
  ERR_HTTP2_STREAM_ERROR: rule(S.MAYBE_SENT, 'network'),
  ERR_HTTP2_SESSION_ERROR: rule(S.MAYBE_SENT, 'network'),
  ERR_HTTP2_GOAWAY_SESSION: rule(S.MAYBE_SENT, 'network'),
  UND_ERR_HEADERS_TIMEOUT: rule(S.MAYBE_SENT, 'timeout'),
  UND_ERR_BODY_TIMEOUT: rule(S.MAYBE_SENT, 'timeout'),
  UND_ERR_SOCKET: rule(S.MAYBE_SENT, 'network'),
  UND_ERR_CLOSED: rule(S.MAYBE_SENT, 'network'),
  UND_ERR_DESTROYED: rule(S.MAYBE_SENT, 'network'),
  UND_ERR_ABORTED: rule(S.MAYBE_SENT, 'timeout'),
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: rule(S.MAYBE_SENT, 'network'),
  UND_ERR_INFO: rule(S.MAYBE_SENT, 'network'),
  ABORT_ERR: rule(S.MAYBE_SENT, 'timeout'),
  CERT_HAS_EXPIRED: rule(S.NOT_SENT, 'network', 'tls'),
  CERT_NOT_YET_VALID: rule(S.NOT_SENT, 'network', 'tls'),
  DEPTH_ZERO_SELF_SIGNED_CERT: rule(S.NOT_SENT, 'network', 'tls'),
  SELF_SIGNED_CERT_IN_CHAIN: rule(S.NOT_SENT, 'network', 'tls'),
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: rule(S.NOT_SENT, 'network', 'tls'),
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: rule(S.NOT_SENT, 'network', 'tls'),
  ERR_TLS_CERT_ALTNAME_INVALID: rule(S.NOT_SENT, 'network', 'tls'),
  UND_ERR_INVALID_ARG: rule(S.NOT_SENT, 'network', 'tool_bug'),
  UND_ERR_NOT_SUPPORTED: rule(S.NOT_SENT, 'network', 'tool_bug'),
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: rule(S.NOT_SENT, 'network', 'tool_bug'),
  UND_ERR_INVALID_RETURN_VALUE: rule(S.NOT_SENT, 'network', 'tool_bug'),
  ERR_INVALID_URL: rule(S.NOT_SENT, 'network', 'tool_bug'),
  ERR_INVALID_ARG_TYPE: rule(S.NOT_SENT, 'network', 'tool_bug'),
  ERR_INVALID_ARG_VALUE: rule(S.NOT_SENT, 'network', 'tool_bug'),
  ERR_INVALID_HTTP_TOKEN: rule(S.NOT_SENT, 'network', 'tool_bug'),
  ERR_INVALID_CHAR: rule(S.NOT_SENT, 'network', 'tool_bug'),
  ERR_HTTP_INVALID_HEADER_VALUE: rule(S.NOT_SENT, 'network', 'tool_bug'),
  ERR_INVALID_PROTOCOL: rule(S.NOT_SENT, 'network', 'tool_bug'),
  ERR_UNESCAPED_CHARACTERS: rule(S.NOT_SENT, 'network', 'tool_bug'),
});

/** Error `name` → rule, for errors without a usable `code` (DOMExceptions, undici classes, Temporal). */
export const NAME_RULES: Readonly<Record<string, TransportRule>> = Object.freeze({
  TimeoutError: rule(S.MAYBE_SENT, 'timeout'), // AbortSignal.timeout(): the moment is unknown
  AbortError: rule(S.MAYBE_SENT, 'timeout'),
  ConnectTimeoutError: rule(S.NOT_SENT, 'timeout'),
  HeadersTimeoutError: rule(S.MAYBE_SENT, 'timeout'),
  BodyTimeoutError: rule(S.MAYBE_SENT, 'timeout'),
  SocketError: rule(S.MAYBE_SENT, 'network'),
  ClientClosedError: rule(S.MAYBE_SENT, 'network'),
  RequestAbortedError: rule(S.MAYBE_SENT, 'timeout'),
  FetchError: rule(S.MAYBE_SENT, 'network'), // node-fetch without a system code
  TimeoutFailure: rule(S.MAYBE_SENT, 'timeout'), // StartToClose does not stop the attempt (docs/DESIGN.md, "Phases")
});

/** Message patterns, used only when no code or name is recognised anywhere in the chain. */
export const MESSAGE_RULES: readonly (readonly [RegExp, TransportRule])[] = Object.freeze([
  [/^fetch failed$/i, rule(S.MAYBE_SENT, 'network')],
  [
    /^(?:failed to fetch|networkerror when attempting to fetch resource\.?|load failed|network error)$/i,
    rule(S.MAYBE_SENT, 'network'),
  ],
  [/^socket hang up$/i, rule(S.MAYBE_SENT, 'network')],
] as const);

export const IO_SYSCALLS = /^(?:read|write|writev|send|sendmsg|recv|shutdown)$/;
export const CONNECT_SYSCALLS = /^(?:connect|getaddrinfo|lookup|queryA|queryAaaa)$/;
