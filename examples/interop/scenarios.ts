/**
 * The interop scenarios and the scripted model's policy, shared by the AI SDK mock model (`ai/test`) and the
 * loopback OpenAI server: the model's next move is a pure function of the scenario and the tool results it has
 * read so far, so what it does next shows what it was told. Self-contained (copied into the consumer test's
 * project).
 */
export const SCENARIOS = ['slot-taken', 'unknown-tool', 'lost-write', 'invalid-arguments'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export type Move = { tool: string; args: Record<string, unknown> } | { text: string };

/** At most this many tool calls per run; then the model gives up. */
const MAX_CALLS = 4;

const FIRST: Record<ScenarioName, Move> = {
  'slot-taken': { tool: 'book_slot', args: { slot: '10:00', customerId: 'cus_7' } },
  'unknown-tool': { tool: 'cancel_booking', args: { bookingId: 'bk_1' } },
  'lost-write': { tool: 'send_email', args: { to: 'ana@example.com', subject: 'Your booking' } },
  'invalid-arguments': { tool: 'send_email', args: { to: 'ana', subject: 'Your booking' } },
};

/** A tool result as the model reads it: parsed JSON when it is JSON, else the text. */
export function readResult(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

const field = (v: unknown, k: string): unknown =>
  typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined;

/** The model's next move after reading `results` (oldest first) in `scenario`. */
export function nextMove(scenario: ScenarioName, results: readonly unknown[]): Move {
  if (results.length === 0) return FIRST[scenario];
  const last = results[results.length - 1];
  if (results.length >= MAX_CALLS) return { text: 'giving up' };
  const free = field(field(last, 'observedState'), 'freeSlots');
  if (scenario === 'slot-taken' && Array.isArray(free) && typeof free[0] === 'string') {
    return { tool: 'book_slot', args: { slot: free[0], customerId: 'cus_7' } };
  }
  const issues = field(last, 'issues');
  const aboutTo =
    (Array.isArray(issues) && issues.some((i) => JSON.stringify(field(i, 'path')) === '["to"]')) ||
    (typeof last === 'string' && /"to"|\bto\b.*e-?mail/i.test(last));
  if (scenario === 'invalid-arguments' && aboutTo) {
    return { tool: 'send_email', args: { to: 'ana@example.com', subject: 'Your booking' } };
  }
  if (typeof field(last, 'bookingId') === 'string') return { text: `booked ${String(field(last, 'slot'))}` };
  if (typeof field(last, 'messageId') === 'string') return { text: `sent ${String(field(last, 'messageId'))}` };
  const capabilities = field(last, 'capabilities');
  if (Array.isArray(capabilities)) {
    return { text: `cannot cancel; I can use ${capabilities.map((c) => String(field(c, 'name'))).join(', ')}` };
  }
  return { text: `stopped: ${typeof last === 'string' ? last.slice(0, 120) : String(field(last, 'message'))}` };
}
