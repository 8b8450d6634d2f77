/**
 * The pure recovery core: no Node APIs, no I/O, no clock and no randomness of its own (time and a random source
 * are parameters), so workflow code can import it inside Temporal's sandbox.
 */
export * from './failure';
export * from './failure-types';
export * from './recovery-error';
export * from './errors';
export * from './redact';
export * from './classify';
export * from './routes';
export * from './gate';
export * from './canonical';
export * from './budgets';
export * from './backoff';
export * from './tool-spec';
export * from './activity-options';
export * from './call-ledger';
export * from './feedback';
export * from './observed-state';
export * from './records';
export * from './telemetry';
export * from './redact-normalize';
