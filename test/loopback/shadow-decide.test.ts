/**
 * Shadow mode's verdicts and enforce's answers for errors real client code throws: axios against a loopback HTTP
 * service (a 409, a 503 with and without Retry-After, a 401, a 403, a socket dropped after the request was read),
 * a plain Error and an ApplicationFailure the activity already made non-retryable. No Temporal server.
 */
import axios from 'axios';
import { ApplicationFailure } from '@temporalio/common';
import { startScriptedService, type ScriptedService, type ScriptStep } from '../../examples/scripted-service';
import { classifyActivityFailure, enforcement, type ShadowVerdict } from '../../plugin/shadow/decide';
import type { ShadowActivityDeclaration } from '../../plugin/shadow/options';
import { DEFAULT_BACKOFF_POLICY } from '../../recovery/backoff';

let service: ScriptedService;
beforeAll(async () => {
  service = await startScriptedService({});
});
afterAll(async () => service?.close());

/** What axios throws for one scripted answer to `method /op`. */
async function thrownBy(step: ScriptStep, method: 'GET' | 'POST' = 'POST'): Promise<unknown> {
  service.reset({ [`${method} /op`]: [step] });
  try {
    await axios.request({ method, url: `${service.url}/op`, data: method === 'POST' ? { a: 1 } : undefined });
  } catch (err) {
    return err;
  }
  throw new Error('the request did not fail');
}

const FACTS = { activityType: 'chargeCard', activityId: '7', workflowId: 'wf-1', attempt: 1 };
const verdictOf = (err: unknown, declared?: ShadowActivityDeclaration) =>
  classifyActivityFailure(err, FACTS, declared, Date.parse('2026-05-01T00:00:00Z'));
const enforce = (v: ShadowVerdict, err: unknown, attempt = 1) =>
  enforcement(v, err, attempt, DEFAULT_BACKOFF_POLICY, () => 0.5);
const summary = (v: ShadowVerdict) => [v.failure.class, v.failure.reason, v.action, v.failure.replaySafe, v.effect];

test('shadow: a 409 on a declared write → semantic_rejection, replan; enforce: the same type and message, non-retryable, the original as cause', async () => {
  const err = await thrownBy({ status: 409, body: { code: 'slot_taken', message: 'slot taken' } });
  const v = verdictOf(err, { effect: 'write' });
  expect(summary(v)).toEqual(['semantic_rejection', 'conflict', 'replan', true, 'write']);
  const e = enforce(v, err);
  if (e.kind !== 'throw') throw new Error(`expected throw, got ${e.kind}`);
  expect([e.enforced, e.error.type, e.error.message, e.error.nonRetryable, e.error.cause]).toEqual([
    'non_retryable',
    'AxiosError',
    'Request failed with status code 409',
    true,
    err,
  ]);
});

test('shadow: a 503 with Retry-After: 2 on a read → transient, retry, Retry-After 2000 ms; enforce: nextRetryDelay = 2000 + 20 % × 0.5 jitter = 2200 ms, still retryable', async () => {
  const err = await thrownBy({ status: 503, headers: { 'retry-after': '2' } }, 'GET');
  const v = verdictOf(err, { effect: 'read' });
  expect([...summary(v), v.failure.retryable, v.failure.retryAfterMs]).toEqual([
    'transient',
    'unavailable',
    'retry',
    true,
    'read',
    true,
    2000,
  ]);
  const e = enforce(v, err);
  if (e.kind !== 'throw') throw new Error(`expected throw, got ${e.kind}`);
  expect([e.enforced, e.nextRetryDelayMs, e.error.nextRetryDelay, e.error.nonRetryable, e.error.type]).toEqual([
    'next_retry_delay',
    2200,
    2200,
    false,
    'AxiosError',
  ]);
});

test('enforce: a Retry-After beyond maxRetryAfterMs (120 s > 60 s) → non-retryable', async () => {
  const err = await thrownBy({ status: 429, headers: { 'retry-after': '120' } }, 'GET');
  const v = verdictOf(err, { effect: 'read' });
  expect([v.failure.class, v.failure.retryAfterMs]).toEqual(['transient', 120_000]);
  expect(enforce(v, err)).toMatchObject({ kind: 'throw', enforced: 'non_retryable' });
});

test('enforce: a 503 without Retry-After is left to Temporal’s retry policy', async () => {
  const err = await thrownBy({ status: 503 }, 'GET');
  const v = verdictOf(err, { effect: 'read' });
  expect(summary(v)).toEqual(['transient', 'unavailable', 'retry', true, 'read']);
  expect(enforce(v, err)).toEqual({ kind: 'unchanged' });
});

test('a socket dropped after a declared write was read → outcome_unknown, reconcile; enforce fails it as outcome_unknown, or looks it up when a lookup is declared', async () => {
  const err = await thrownBy({ destroy: true });
  const v = verdictOf(err, { effect: 'write' });
  expect(summary(v)).toEqual(['outcome_unknown', 'network', 'reconcile', false, 'write']);
  const e = enforce(v, err);
  if (e.kind !== 'throw') throw new Error(`expected throw, got ${e.kind}`);
  expect([e.enforced, e.error.type, e.error.nonRetryable, e.error.cause, e.error.message]).toEqual([
    'outcome_unknown',
    'outcome_unknown',
    true,
    err,
    v.failure.publicMessage,
  ]);
  const withLookup = verdictOf(err, { effect: 'write', lookup: async () => ({ state: 'unknown' }) });
  expect(enforce(withLookup, err)).toEqual({ kind: 'lookup' });
});

test('the same dropped socket with the effect undeclared: classified as a write (unknown outcome), but enforce leaves it to Temporal', async () => {
  const err = await thrownBy({ destroy: true });
  const v = verdictOf(err);
  expect(summary(v)).toEqual(['outcome_unknown', 'network', 'reconcile', false, 'unknown']);
  expect(enforce(v, err)).toEqual({ kind: 'unchanged' });
});

test('the same dropped socket on a read → transient, retry; left to Temporal', async () => {
  const err = await thrownBy({ destroy: true }, 'GET');
  const v = verdictOf(err, { effect: 'read' });
  expect(summary(v)).toEqual(['transient', 'network', 'retry', true, 'read']);
  expect(enforce(v, err)).toEqual({ kind: 'unchanged' });
});

test('a 401: one more attempt (the re-auth route), then non-retryable', async () => {
  const err = await thrownBy({ status: 401 }, 'GET');
  const v = verdictOf(err, { effect: 'read' });
  expect(summary(v)).toEqual(['authentication', 'credential_missing', 'reauth', true, 'read']);
  expect(enforce(v, err, 1)).toEqual({ kind: 'unchanged' });
  expect(enforce(v, err, 2)).toMatchObject({ kind: 'throw', enforced: 'non_retryable' });
});

test('a 403 → authorization, stop; enforce: non-retryable', async () => {
  const err = await thrownBy({ status: 403, body: { code: 'forbidden' } }, 'GET');
  const v = verdictOf(err, { effect: 'read' });
  expect(summary(v)).toEqual(['authorization', 'forbidden', 'stop', true, 'read']);
  expect(enforce(v, err)).toMatchObject({ kind: 'throw', enforced: 'non_retryable' });
});

test('an error no rule recognises (a plain Error) → unrecoverable/unrecognized, escalate; enforce leaves it to Temporal', () => {
  const err = new Error('boom');
  const v = verdictOf(err, { effect: 'read' });
  expect(summary(v)).toEqual(['unrecoverable', 'unrecognized', 'escalate', true, 'read']);
  expect(enforce(v, err)).toEqual({ kind: 'unchanged' });
});

test('an ApplicationFailure the activity made non-retryable, or gave a nextRetryDelay, is left as it is', () => {
  const final = ApplicationFailure.nonRetryable('card declined', 'CardDeclined');
  expect(enforce(verdictOf(final, { effect: 'write' }), final)).toEqual({ kind: 'unchanged' });
  const delayed = ApplicationFailure.create({ message: 'later', nextRetryDelay: 5_000 });
  expect(enforce(verdictOf(delayed, { effect: 'write' }), delayed)).toEqual({ kind: 'unchanged' });
});
