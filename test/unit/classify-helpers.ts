/**
 * Shared fixtures for the classifier tests (not a test file: jest matches only *.test.ts).
 */
import type { CallContext } from '../../recovery/classify';

/** 2026-10-01T12:00:00Z. */
export const NOW_MS = Date.UTC(2026, 9, 1, 12, 0, 0);

/** A call context; read by default. */
export function ctxOf(over: Partial<CallContext> = {}): CallContext {
  return {
    tool: 'get_docs',
    callId: 'call-1',
    effect: 'read',
    deduplicates: false,
    approvalCanLift: false,
    nowMs: NOW_MS,
    diagnosticRef: 'diag-1',
    ...over,
  };
}

export const READ = ctxOf();
export const WRITE = ctxOf({ tool: 'create_payment', effect: 'write' });
export const WRITE_DEDUP = ctxOf({ tool: 'create_payment', effect: 'write', deduplicates: true });
