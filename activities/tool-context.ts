/** What a tool's `execute` and `lookup` receive from the activity. */
import type { ApprovalGrant } from '../workflows/definitions';
import type { ToolHttp } from './http';

/** What a tool's `execute`, `lookup` and `verify` receive from the activity (one per attempt). */
export interface ToolContext {
  /** The tool's name. */
  readonly tool: string;
  /** This call's id, unique per logical call (stable across the activity's attempts). */
  readonly callId: string;
  /**
   * The operation_id: the idempotency key of the business intent, derived in workflow code from the workflow id
   * and a stable step id; the same across attempts, re-issues, worker crashes and replays. Send it as the
   * idempotency key; never mint a new one on retry.
   */
  readonly operationId: string;
  /** The activity attempt, 1-based (Temporal `Info.attempt`). */
  readonly attempt: number;
  /** Aborted when the activity is cancelled or times out (heartbeat or StartToClose); pass it to every I/O. */
  readonly signal: AbortSignal;
  /** The credential the broker supplies for `credential`, if the tool declares one. Never leaves the worker. */
  readonly credential: { readonly token: string; readonly version: number } | undefined;
  /** Set when a person approved this call after a 403; send it the way the downstream expects. */
  readonly approval: Readonly<ApprovalGrant> | undefined;
  /** Records progress; long tools call it so cancellation reaches them (Temporal heartbeats). */
  heartbeat(details?: unknown): void;
  /** A fetch wrapper that keeps the raw facts (status, headers, body) for the classifier. */
  readonly http: ToolHttp;
}
