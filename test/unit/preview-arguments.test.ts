/**
 * The arguments a person decides on, previewed on the Node side (activities/preview-arguments.ts): the approval
 * preview the refused activity carries in its failure's details, and the `previewArguments` activity of a review
 * case. Pure: no workers, no servers.
 */
import { previewArguments, withApprovalPreview } from '../../activities/preview-arguments';
import { buildFailure } from '../../recovery/classify/build';
import { failureMetaSchema, type ToolFailure } from '../../recovery/failure';
import type { ToolSpec } from '../../recovery/tool-spec';

const spec: ToolSpec = {
  name: 'export_report',
  description: 'd',
  inputSchema: { type: 'object', properties: { month: { type: 'string' }, apiKey: { type: 'string' } } },
  effect: 'write',
  idempotency: { carrier: 'field', name: 'requestId', deduplicates: true },
  hasLookup: false,
  approvalCanLift: true,
  startToCloseTimeoutMs: 1000,
};
const failure = (reason: 'approval_required' | 'forbidden'): ToolFailure =>
  buildFailure(
    { tool: spec.name, callId: 'c1', diagnosticRef: 'wf/1/1' },
    {
      class: 'authorization',
      reason,
      phase: 'dispatch',
      retryable: false,
      replaySafe: true,
      publicMessage: 'export_report: HTTP 403, forbidden.',
    },
  );
const args = { month: '2026-11', apiKey: 'sk-live-0123456789abcdef', requestId: 'wf:op-1', extra: 'dropped' };

describe('withApprovalPreview', () => {
  it('a 403 a person can lift: the arguments the digest covers, a secret-named key and the idempotency field dropped', () => {
    const meta = withApprovalPreview({ attempt: 1 }, failure('approval_required'), spec, args);
    expect(meta).toEqual({ attempt: 1, argsPreview: { month: '2026-11' } });
    expect(failureMetaSchema().parse(meta)).toEqual(meta); // it crosses to the workflow as it is
  });

  it('any other failure, or an unknown tool: the meta as it was', () => {
    const meta = { attempt: 2 };
    expect(withApprovalPreview(meta, failure('forbidden'), spec, args)).toBe(meta);
    expect(withApprovalPreview(meta, failure('approval_required'), undefined, args)).toBe(meta);
  });
});

describe('previewArguments', () => {
  it('redacts strings and keys, drops secret-named values, bounds depth', async () => {
    await expect(
      previewArguments({
        args: { orderId: 'O-1', note: 'call me at ops@example.com', password: 'x', a: { b: { c: { d: { e: 1 } } } } },
      }),
    ).resolves.toEqual({ orderId: 'O-1', note: 'call me at [email]', a: { b: { c: { d: '[…]' } } } });
  });

  it('nothing to show: null', async () => {
    await expect(previewArguments({})).resolves.toBeNull();
    await expect(previewArguments(null as never)).resolves.toBeNull();
    await expect(previewArguments({ args: '' })).resolves.toBeNull();
  });
});
