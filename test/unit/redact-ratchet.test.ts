/**
 * The redaction ratchet (issue 36): redaction never gets weaker. test/fixtures/secret-corpus.json holds every text
 * of every version of the redaction tests and attack probes that `redact` ever changed (scripts/secret-corpus.ts,
 * over git history), with the words it removed, and the secrets found since (`from: "issue 36"`: an AWS secret
 * access key after its key id, a model provider's organisation id in a 429, the caller's own account ids). Each
 * text is placed in the channels a server's words take — a 500's message, a 429's error, a 503's plain body, a
 * 409's observed state, a 400's field issue, an SDK error's body — and read the way the router reads it: `classify`,
 * the activity edge's `semanticMeta`, `feedbackFor`. What the model and the history get (the failure record, its
 * meta and the feedback) must hold none of the entry's secrets. The corpus only grows. Pure: no workers, no servers.
 */
import { semanticMeta } from '../../activities/postcondition';
import type { AnyTool } from '../../activities/define-tool';
import { classify, type RawOutcome } from '../../recovery/classify';
import { feedbackFor } from '../../recovery/feedback';
import { routeFor } from '../../recovery/routes';
import corpus from '../fixtures/secret-corpus.json';

/** The corpus's size when this test was written: a smaller corpus is a weaker ratchet. */
const CORPUS_AT_LEAST = 361;

const TOOL = { name: 'pay', effect: 'write' } as unknown as AnyTool;
const CTX = {
  tool: 'pay',
  callId: 'c1',
  effect: 'write' as const,
  deduplicates: false,
  approvalCanLift: false,
  nowMs: 1_700_000_000_000,
  diagnosticRef: 'ratchet/1',
};

const http = (status: number, body: unknown): RawOutcome => ({ kind: 'http', status, headers: {}, body });

/** The channels, each a raw outcome carrying `t`. */
const CHANNELS: Readonly<Record<string, (t: string) => RawOutcome>> = {
  '500 message': (t) => http(500, { message: t }),
  '429 error': (t) => http(429, { error: { message: t, type: 'requests', code: 'rate_limit_exceeded' } }),
  '503 text': (t) => http(503, t),
  '409 observed state': (t) => http(409, { code: 'conflict', detail: t, existing: { note: t } }),
  '400 field issue': (t) => http(400, { errors: [{ field: 'memo', message: t }] }),
  'SDK error': (t) => ({
    kind: 'thrown',
    error: Object.assign(new Error(`429 ${t}`), { status: 429, headers: {}, error: { message: t } }),
  }),
};

/** What the model and the history get from one failed call: the failure record, its meta and the feedback. */
function visible(raw: RawOutcome): string {
  const failure = classify(raw, CTX);
  const meta = semanticMeta(raw.kind === 'thrown' ? raw.error : raw, failure, TOOL);
  const feedback = feedbackFor(failure, routeFor(failure).action, { observedState: meta.observedState });
  return JSON.stringify({ failure, meta, feedback });
}

/** Words the router's own templates hold (a secret equal to one could not be told from the template). */
const TEMPLATE = Object.values(CHANNELS)
  .map((c) => visible(c('nothing to see')))
  .join(' ');

test(`the secret corpus: ≥ ${CORPUS_AT_LEAST} texts, and none of their secrets in model text or history, in any of ${Object.keys(CHANNELS).length} channels`, () => {
  expect(corpus.length).toBeGreaterThanOrEqual(CORPUS_AT_LEAST);
  const leaks: string[] = [];
  for (const entry of corpus) {
    for (const [channel, place] of Object.entries(CHANNELS)) {
      const text = visible(place(entry.text));
      for (const secret of entry.secrets) {
        if (!TEMPLATE.includes(secret) && text.includes(JSON.stringify(secret).slice(1, -1)))
          leaks.push(`${channel}: ${secret} (${entry.from})`);
      }
    }
  }
  expect(leaks).toEqual([]);
});

test('business identifiers stay: an order id, a booking id, a customer id reach the model in the observed state', () => {
  const text = 'order ord_12345 (O-1842) for customer cus_7 is held by booking bk_9; invoice in_1Mq2 is open';
  const seen = visible(CHANNELS['409 observed state']!(text));
  for (const id of ['ord_12345', 'O-1842', 'cus_7', 'bk_9', 'in_1Mq2']) expect(seen).toContain(id);
});
