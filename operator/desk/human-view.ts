/**
 * What a person sees of a call's arguments (docs/approvals.md, "What a person sees"): the desk's own rendering with
 * its own rules, not the model's preview (activities/preview-arguments.ts). Each leaf is a row in full (accounts,
 * recipients, amounts, identifiers); a credential is masked, its row naming the field; a text past
 * `VIEW_LIMITS.textChars` and the rows past `VIEW_LIMITS.rows` are folded, saying how much, until opened
 * (`/api/part`). `digest` names the rendering: a decision carries it. Node side; pure.
 */
import { createHash } from 'node:crypto';
import { argsHash } from '../../recovery/canonical';

export const VIEW_LIMITS = { textChars: 1_000, rows: 60 };

export interface ViewRow {
  /** Keys and indexes from the top, e.g. `['to', 'iban']`, `['items', 3]`; `[]` for the top value itself. */
  path: Array<string | number>;
  /** The leaf: a string as it is, another value as JSON (`{}`, `[]` when empty); absent when masked. */
  text?: string;
  /** A credential: the key that holds it and its length in characters (of its JSON, when not a string). */
  masked?: { field: string; chars: number };
  /** A fold: its id (`/api/part`), and the characters of `text` or the rows it hides. */
  fold?: { id: string; chars?: number; rows?: number };
}

/** The rows, and `digest`: sha256 hex of the JSON of `{ argsDigest, rows }`, what a decision names as `viewDigest`. */
export type HumanView = { rows: ViewRow[]; digest: string };

/** A rendering and what its folds hide (`/api/part`): a text's rest, or the rows past the limit. */
export type Rendered = { view: HumanView; parts: ReadonlyMap<string, { text: string } | { rows: ViewRow[] }> };

/** Keys of credentials (lower-case, without `-_.`): the desk's own list, not the model's (recovery/redact-key-words.ts). */
const CREDENTIAL_KEY =
  /(password|passwd|passphrase|secret|token|apikey|accesskey|privatekey|authorization|cookie|credentials?|sessionid)$|^(pin|otp|cvc|cvv|auth)$/;
/** Values that are a credential whatever their key: an HTTP authorization, a JWT, a PEM private key. */
const CREDENTIAL_VALUE =
  /^(bearer|basic)\s+\S{8,}$|^eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}$|-----BEGIN [A-Z ]*PRIVATE KEY-----/i;

/** Every leaf of `value` as a row, in full; credentials masked. Depth is bounded by the router (256 levels). */
function leaves(value: unknown, path: Array<string | number>, out: ViewRow[]): void {
  const last = path[path.length - 1];
  const nested = typeof value === 'object' && value !== null ? Object.entries(value) : [];
  const key = typeof last === 'string' && CREDENTIAL_KEY.test(last.toLowerCase().replace(/[-_.]/g, ''));
  if (key || (typeof value === 'string' && CREDENTIAL_VALUE.test(value))) {
    const chars = typeof value === 'string' ? value.length : JSON.stringify(value).length;
    out.push({ path, masked: { field: String(last ?? ''), chars } });
  } else if (nested.length > 0) {
    for (const [k, v] of nested) leaves(v, [...path, Array.isArray(value) ? Number(k) : k], out);
  } else out.push({ path, text: typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null') });
}

/** The rendering of a run's arguments; null when none came, or not those `argsDigest` (`argsHash`) names. */
export function rendered(args: unknown, argsDigest?: string): Rendered | null {
  let digest: string;
  try {
    digest = argsHash(args);
  } catch {
    return null;
  }
  return args === undefined || (argsDigest ?? digest) !== digest ? null : renderArguments(args, digest);
}

function renderArguments(args: unknown, argsDigest: string): Rendered {
  const all: ViewRow[] = [];
  leaves(args, [], all);
  const parts = new Map<string, { text: string } | { rows: ViewRow[] }>();
  const rows = all.slice(0, VIEW_LIMITS.rows).map((row) => {
    if (row.text === undefined || row.text.length <= VIEW_LIMITS.textChars) return row;
    const id = `t${parts.size + 1}`;
    parts.set(id, { text: row.text });
    const fold = { id, chars: row.text.length - VIEW_LIMITS.textChars };
    return { ...row, text: row.text.slice(0, VIEW_LIMITS.textChars), fold };
  });
  if (all.length > VIEW_LIMITS.rows) {
    parts.set('rest', { rows: all.slice(VIEW_LIMITS.rows) });
    rows.push({ path: [], fold: { id: 'rest', rows: all.length - VIEW_LIMITS.rows } });
  }
  const digest = createHash('sha256').update(JSON.stringify({ argsDigest, rows })).digest('hex');
  return { view: { rows, digest }, parts };
}

/** Where the folds `opened` does not hold are (`statement`, `to.iban`, `more fields`); '' when none. */
export function unopened(view: HumanView, opened: (fold: string) => boolean): string {
  return view.rows
    .filter((r) => r.fold && !opened(r.fold.id))
    .map((r) => (r.path.length ? r.path.join('.') : 'more fields'))
    .join(', ');
}
