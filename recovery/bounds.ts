/**
 * The size limits of what the plugin writes into Temporal, each below the server's: Temporal refuses a payload over
 * its blob size limit (2 MB by default) and warns from 512 KB, and a workflow task whose commands carry more fails
 * and is retried forever (Temporal docs, "Temporal Platform limits": blob size limit, and the
 * `WORKFLOW_TASK_FAILED_CAUSE_PAYLOADS_TOO_LARGE` cause). Every value the plugin carries — a tool's arguments, a
 * tool's result, a workflow's result — is measured as JSON (the default payload converter's encoding) and cut or
 * replaced by a marker when it is over its limit (docs/DESIGN.md, "Bounds").
 * Pure: no I/O.
 */

/** One tool result carried back from its activity (or from a lookup), in bytes of JSON. */
export const MAX_RESULT_BYTES = 512 * 1024;

/** Everything a plugin workflow returns (its outcomes and records), in bytes of JSON. */
export const MAX_WORKFLOW_RESULT_BYTES = 1024 * 1024;

/** The JSON text of `value` and its UTF-8 size, or why it has none. */
export type Measured =
  | { readonly kind: 'json'; readonly json: string | undefined; readonly bytes: number; readonly hadBigInt: boolean }
  | { readonly kind: 'unsendable'; readonly why: string };

/**
 * `value` as the default payload converter would write it (`JSON.stringify`), except that a BigInt is written as its
 * decimal string (JSON has no BigInt: RFC 8259 §6; database clients return them for bigint columns). Never throws:
 * a cycle, a throwing getter or `toJSON`, a revoked Proxy or nesting too deep for the stack is `unsendable`.
 */
export function measureJson(value: unknown): Measured {
  let hadBigInt = false;
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v !== 'bigint') return v;
      hadBigInt = true;
      return v.toString();
    });
    return { kind: 'json', json, bytes: json === undefined ? 0 : utf8Bytes(json), hadBigInt };
  } catch (err) {
    return { kind: 'unsendable', why: whyUnsendable(err) };
  }
}

/** A public reason for a value JSON cannot write. Never quotes the value or the thrown message. */
function whyUnsendable(err: unknown): string {
  if (err instanceof RangeError) return 'it is nested too deeply';
  if (err instanceof TypeError && /circular|cyclic/i.test(err.message)) return 'it refers to itself (a cycle)';
  return 'reading it threw an error';
}

/** UTF-8 size of `text` in bytes, without allocating it. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * What stands in for a value the plugin cannot carry: `{ omitted: true, why, bytes? }` (`bytes` = its JSON size when
 * it had one). A write's marker also says it was applied, so the model does not repeat it.
 */
export interface OmittedValue {
  readonly omitted: true;
  readonly why: string;
  readonly bytes?: number;
  readonly applied?: true;
  readonly note?: string;
}

/** Whether `value` is a write's marker: applied, its result omitted. */
export function isOmittedWrite(value: unknown): value is OmittedValue {
  const v = value as Partial<OmittedValue> | null;
  return typeof v === 'object' && v !== null && v.omitted === true && v.applied === true;
}

/** The marker for a value omitted because `why`; `applied` for a write's result. */
export function omittedValue(why: string, bytes: number | undefined, applied: boolean): OmittedValue {
  return {
    omitted: true,
    why,
    ...(bytes === undefined ? {} : { bytes }),
    ...(applied
      ? {
          applied: true as const,
          note: 'The write was applied; only its result could not be carried back. Do not repeat it.',
        }
      : {}),
  };
}
