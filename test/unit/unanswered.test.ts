/**
 * The failure of a call with no answer after its attempts (recovery/classify/unanswered.ts), as the workflow side
 * assembles it without redaction rules (workflows/activity-failure.ts): the same failure `buildFailure` made
 * before, for every tool name, because the worker hands the workflow the public form of each message the redaction
 * changes (plugin/worker-data.ts). Pure: no workers, no servers.
 */
import fc from 'fast-check';
import { RecoveryConfigSchema } from '../../config/schema';
import { publicFormsOf, workerDataOf } from '../../plugin/worker-data';
import { assembleFailure } from '../../recovery/classify/assemble';
import { buildFailure } from '../../recovery/classify/build';
import { NO_ANSWER, unansweredDraft, type NoAnswer, type UnansweredTool } from '../../recovery/classify/unanswered';
import { TOOL_NAME_PATTERN, type ToolSpec } from '../../recovery/tool-spec';

const read = (name: string): UnansweredTool => ({ name, effect: 'read', idempotency: { carrier: 'none' } });
const write = (name: string): UnansweredTool => ({ name, effect: 'write', idempotency: { carrier: 'none' } });
const dedupWrite = (name: string): UnansweredTool => ({
  name,
  effect: 'write',
  idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true },
});
const id = (name: string) => ({ tool: name, callId: 'c1', diagnosticRef: 'wf/1/1' });
const WHYS = Object.keys(NO_ANSWER) as NoAnswer[];

/** What the workflow side makes: the draft, its message in the worker's public form when it has one. */
function workflowSide(spec: UnansweredTool, why: NoAnswer, forms: Record<string, string>) {
  const draft = unansweredDraft(spec, why);
  return assembleFailure(id(spec.name), draft, { publicMessage: forms[draft.publicMessage] ?? draft.publicMessage });
}

describe('unansweredDraft', () => {
  it('a read that timed out: transient, not retried again, "on every allowed attempt"', () => {
    expect(
      assembleFailure(id('check_inventory'), unansweredDraft(read('check_inventory'), 'timeout'), {
        publicMessage: unansweredDraft(read('check_inventory'), 'timeout').publicMessage,
      }),
    ).toMatchObject({
      class: 'transient',
      reason: 'timeout',
      phase: 'dispatch',
      retryable: false,
      replaySafe: true,
      publicMessage: 'The tool "check_inventory" timed out on every allowed attempt.',
    });
  });

  it('a write that is not replay-safe: outcome_unknown in commit_unknown, "may or may not have been applied"', () => {
    const d = unansweredDraft(write('issue_refund'), 'unreported');
    expect(d).toMatchObject({ class: 'outcome_unknown', reason: 'unrecognized', phase: 'commit_unknown' });
    expect(d.publicMessage).toBe(
      'The tool "issue_refund" failed in a way its activity did not report after the write was sent; it may or may ' +
        'not have been applied. Check its status before any new attempt.',
    );
  });

  it('a write whose receiver deduplicates: transient in commit_unknown, not retried again', () => {
    expect(unansweredDraft(dedupWrite('pay'), 'timeout')).toMatchObject({
      class: 'transient',
      phase: 'commit_unknown',
      retryable: false,
      replaySafe: true,
      publicMessage: 'The tool "pay" timed out on every allowed attempt.',
    });
  });
});

describe('publicFormsOf: the worker redacts, the workflow looks up', () => {
  it('names the redaction leaves alone need no entry; a host, an address or a key does', () => {
    const forms = publicFormsOf([
      read('check_inventory'),
      write('password'),
      write('api.example.com'),
      read('10.0.0.1'),
    ]);
    expect(Object.keys(forms)).toHaveLength(4);
    expect(
      forms[
        'The tool "api.example.com" timed out after the write was sent; it may or may not have been ' +
          'applied. Check its status before any new attempt.'
      ],
    ).toBe(
      'The tool "[host]" timed out after the write was sent; it may or may not have been applied. Check its status ' +
        'before any new attempt.',
    );
    expect(forms['The tool "10.0.0.1" timed out on every allowed attempt.']).toBe(
      'The tool "[ip]" timed out on every allowed attempt.',
    );
  });

  it('for any tool name, the workflow side gives the failure buildFailure gives (the final pass over the message)', () => {
    const names = fc.oneof(
      fc.stringMatching(TOOL_NAME_PATTERN),
      fc.constantFrom(
        'password',
        'api_key',
        'token',
        'orders.io',
        'sk-proj-abc123def456ghi789',
        'AKIAABCDEFGHIJKLMNOP',
      ),
    );
    const kinds = fc.constantFrom(read, write, dedupWrite);
    fc.assert(
      fc.property(names, kinds, fc.constantFrom(...WHYS), (name, kind, why) => {
        const spec = kind(name);
        const forms = publicFormsOf([spec]);
        expect(workflowSide(spec, why, forms)).toEqual(buildFailure(id(name), unansweredDraft(spec, why)));
      }),
      { numRuns: 300 },
    );
  });

  it('workerDataOf carries the forms only when the catalog has such a name', () => {
    const config = RecoveryConfigSchema.parse({});
    const spec = (name: string): ToolSpec => ({
      ...read(name),
      description: 'd',
      inputSchema: {},
      hasLookup: false,
      approvalCanLift: false,
      startToCloseTimeoutMs: 1000,
    });
    expect(workerDataOf([spec('check_inventory')], config, true)).not.toHaveProperty('publicForms');
    expect(workerDataOf([spec('check_inventory'), spec('orders.io')], config, true).publicForms).toEqual({
      'The tool "orders.io" timed out on every allowed attempt.':
        'The tool "[host]" timed out on every allowed attempt.',
      'The tool "orders.io" failed in a way its activity did not report on every allowed attempt.':
        'The tool "[host]" failed in a way its activity did not report on every allowed attempt.',
    });
  });
});
