/**
 * An answer's body, read as a stream to a bound and never whole (docs/DESIGN.md, "Bounds"): the bytes after content
 * decoding count (a gzip bomb stops at the bound), and the stream is cancelled there. Node-side only.
 */
/** Most bytes of a 2xx body (or of a status the request accepts) `ctx.http` reads, after content decoding. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Most bytes of any other answer's body kept for the classifier; the rest is never read. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * `res`'s body up to `limit` bytes as text; `over` when it went on (the stream is then cancelled), `cut` the error
 * that ended it early. Never throws.
 */
export async function readBounded(
  res: Response,
  limit: number,
): Promise<{ text: string; over: boolean; cut?: unknown }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const text = () => Buffer.concat(chunks, size).toString('utf8');
  const reader = res.body?.getReader();
  try {
    for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) {
      const room = limit - size;
      chunks.push(next.value.subarray(0, room));
      size += Math.min(next.value.byteLength, room);
      if (next.value.byteLength > room) {
        void reader?.cancel().catch(() => undefined);
        return { text: text(), over: true };
      }
    }
    return { text: text(), over: false };
  } catch (err) {
    return { text: text(), over: false, cut: err };
  }
}

/** Parsed JSON when the answer says JSON and parses; the text otherwise; `""` for an empty body. */
export function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '' || !contentType?.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `text` with each word of 8 characters or more of `secrets` (request header values) as `[redacted]`. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  const words = secrets.flatMap((s) => s.split(/\s+/)).filter((w) => w.length >= 8);
  return words.reduce((out, word) => out.split(word).join('[redacted]'), text);
}
