/**
 * HTTP plumbing of the desk over `node:http`: the security headers of every answer, JSON answers, bounded JSON
 * bodies and the session cookie. Node side.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The session cookie's name; under TLS `__Host-rr_desk` (RFC 6265bis §4.1.3.2: Secure, Path=/, no Domain). */
export const SESSION_COOKIE = 'rr_desk';

/** Largest request body read, in bytes; a larger one is refused with 413. */
export const MAX_BODY_BYTES = 16_384;

/**
 * On every answer: a strict Content-Security-Policy (W3C CSP Level 3: scripts, styles and connections from the
 * desk's own origin only, no inline script, no framing), no MIME sniffing, no referrer, no caching.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
});

/** An error's first line, without a stack. */
export const briefly = (err: unknown) =>
  (err instanceof Error ? err.message : 'unknown error').split('\n')[0]!.slice(0, 300);

/** A failure the desk answers with `status` and `{ error: message }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/**
 * The request's JSON body: an object, at most `MAX_BODY_BYTES`, sent as `application/json` (a cross-site HTML form
 * cannot send that type without a CORS preflight, which the desk never answers).
 * @throws HttpError 415 for another content type, 413 when too large, 400 when not a JSON object.
 */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, 'send the request as application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the request body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HttpError(400, 'the request body must be a JSON object');
  return value as Record<string, unknown>;
}

/**
 * Cookie `name` of the request (RFC 6265 §5.4), or undefined. @throws HttpError 400 when it comes twice: cookies ignore
 * ports (RFC 6265 §8.5), so a page on another port can set a second one (a longer Path is sent first).
 */
export function cookie(req: IncomingMessage, name: string): string | undefined {
  const found = (req.headers.cookie ?? '').split(';').flatMap((p) => (p.trim().startsWith(`${name}=`) ? [p] : []));
  if (found.length > 1) throw new HttpError(400, 'two session cookies came: another page set one; log in again');
  return found[0]?.trim().slice(name.length + 1);
}

/** `Set-Cookie` for the session (RFC 6265bis: HttpOnly, SameSite=Strict, Path=/; under TLS `__Host-`, Secure). */
export function sessionCookie(id: string, maxAgeMs: number, secure: boolean): string {
  const name = secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
  const attrs = [`${name}=${id}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${Math.floor(maxAgeMs / 1000)}`];
  if (secure) attrs.push('Secure');
  return attrs.join('; ');
}

/** A string field of a JSON body, trimmed, 1 to `max` characters. @throws HttpError 400 naming it */
export function textField(body: Record<string, unknown>, name: string, max: number): string {
  const v = body[name];
  if (typeof v !== 'string' || v.trim() === '' || v.length > max)
    throw new HttpError(400, `\`${name}\` must be text of 1 to ${max} characters`);
  return v.trim();
}

/** `textField`, or undefined when the field is absent or blank. @throws HttpError 400 naming it */
export function optionalText(body: Record<string, unknown>, name: string, max: number): string | undefined {
  const v = body[name];
  return v === undefined || (typeof v === 'string' && v.trim() === '') ? undefined : textField(body, name, max);
}
