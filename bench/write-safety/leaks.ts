/**
 * What must never reach a history (docs/DESIGN.md, "What the model sees": never a stack trace, path, host, port,
 * token…): scans every payload and every failure of a history's events for planted secrets, stacks, file paths and
 * loopback hosts. Pure. Events are Temporal's decoded history events (`handle.fetchHistory()`); the texts scanned
 * are each payload's `data` (UTF-8) and each failure's `message` and `stackTrace` — not the server's own metadata
 * (identities, task queues), which hold a host name by Temporal's design.
 */

export interface Leak {
  kind: 'secret' | 'stack' | 'path' | 'host';
  /** Event type where it was found, e.g. `ACTIVITY_TASK_FAILED`. */
  event: string;
  /** For a secret: its index in the needles given; else the matched text (at most 80 characters). */
  what: string;
}

const STACK = /(?:^|\n)\s*at\s+\S[^\n]*:\d+:\d+\)?/;
const PATH =
  /(?:^|[\s"'(=])\/(?:work|home|tmp|usr|root|opt|var|srv)\/[\w.@+-]+\/|node_modules[\\/]|\b[\w.-]+\.(?:ts|js|mjs|cjs):\d+\b/;
const HOST = /\b(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|0\.0\.0\.0)(?::\d+)?\b|\[::1\]/;

interface Text {
  text: string;
  stackTrace: boolean;
}

/** Texts of one event: payload data and failure messages and stack traces, depth-first. */
function textsOf(node: unknown, key: string, out: Text[], depth = 0): void {
  if (node === null || node === undefined || depth > 64) return;
  if (node instanceof Uint8Array) {
    if (key === 'data') out.push({ text: Buffer.from(node).toString('utf8'), stackTrace: false });
    return;
  }
  if (typeof node === 'string') {
    if (key === 'message') out.push({ text: node, stackTrace: false });
    if (key === 'stackTrace' && node !== '') out.push({ text: node, stackTrace: true });
    return;
  }
  if (typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node as Record<string, unknown>))
    textsOf(v, Array.isArray(node) ? key : k, out, depth + 1);
}

/** Names an event by its attributes field (`activityTaskFailedEventAttributes` → `ACTIVITY_TASK_FAILED`). */
function eventName(event: object): string {
  const attrs = Object.keys(event).find((k) => k.endsWith('EventAttributes') && (event as Record<string, unknown>)[k]);
  return attrs
    ? attrs
        .replace(/EventAttributes$/, '')
        .replace(/([A-Z])/g, '_$1')
        .toUpperCase()
    : 'EVENT';
}

/** Every leak in `events`; `needles` are planted secrets (matched as given). Terminations we sent are skipped. */
export function scanHistory(events: readonly object[], needles: readonly string[] = []): Leak[] {
  const leaks: Leak[] = [];
  for (const event of events) {
    const name = eventName(event);
    if (name === 'WORKFLOW_EXECUTION_TERMINATED') continue;
    const texts: Text[] = [];
    textsOf(event, '', texts);
    for (const t of texts) leaks.push(...scanText(t.text, name, needles, t.stackTrace));
  }
  return leaks;
}

/** Leaks in one text. A non-empty failure `stackTrace` is a stack whatever it holds. */
export function scanText(text: string, event: string, needles: readonly string[], isStackTrace = false): Leak[] {
  const leaks: Leak[] = [];
  needles.forEach((n, i) => {
    if (text.includes(n)) leaks.push({ kind: 'secret', event, what: `secret #${i}` });
  });
  const stack = isStackTrace ? text : STACK.exec(text)?.[0];
  if (stack) leaks.push({ kind: 'stack', event, what: stack.trim().slice(0, 80) });
  for (const [kind, re] of [
    ['path', PATH],
    ['host', HOST],
  ] as const) {
    const m = re.exec(text);
    if (m) leaks.push({ kind, event, what: m[0].trim().slice(0, 80) });
  }
  return leaks;
}

/** One line per distinct leak: `stack in ACTIVITY_TASK_FAILED: at …`. */
export function describeLeaks(leaks: readonly Leak[]): string[] {
  return [...new Set(leaks.map((l) => `${l.kind} in ${l.event}: ${l.what}`))];
}
