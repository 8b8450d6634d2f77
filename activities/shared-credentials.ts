/**
 * The credential refresh shared by every worker of the namespace (docs/DESIGN.md, "Circuit breaker": shared mode). A
 * 401 on any worker asks the entity `credential:<id>` (workflows/credential-entity.ts) for a version newer than the
 * one refused; the entity runs one refresh for all of them, as the activity `recoveryRefreshCredential` below, and
 * hands every worker the new token, sealed with AES-256-GCM under a key all workers hold (never the token in plain
 * history: Temporal stores activity results and update results as they are).
 *
 * Bounds: the entity must accept the request within `timeoutMs` (default 2 000 ms), else the broker refreshes
 * locally (activities/credentials.ts). Once accepted, the caller waits for the refresh up to `refreshWaitMs`
 * (default: the refresh lease + 5 000 ms) and, if it runs out, gets `CredentialUnavailable` rather than a local
 * refresh: a refresh may be under way, and spending a rotating refresh token twice locks the credential out.
 * Node-side only.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { FAILURE_REASONS, FailureClass } from '../recovery/failure';
import { credentialEntityWorkflow } from '../workflows/credential-entity';
import { credentialEntityId, credentialRefreshUpdate } from '../workflows/entity-definitions';
import {
  classifyProviderError,
  CredentialRefreshFailed,
  CredentialUnavailable,
  type CredentialBroker,
  type SharedRefresh,
} from './credentials';
import { HOLDER, SharedStateChannel, SharedStateUnavailable, type SharedStateOptions } from './shared-state';

/**
 * `credentialRefresh: { shared: true, key, … }`: one refresh per credential for the namespace, through the
 * entity workflow `credential:<id>`; tokens travel sealed (AES-256-GCM) under `key`.
 */
export interface SharedCredentialOptions extends SharedStateOptions {
  /** Refresh credentials through Temporal, once for every worker of the namespace. */
  shared: true;
  /** Seals tokens in history (AES-256-GCM; the SHA-256 of this key): the same on every worker, ≥ 32 bytes. */
  key: string | Uint8Array;
  /**
   * The refresh activity's schedule-to-close timeout: how long a refresh whose worker died holds its lease before
   * the next 401 may refresh again, in ms. @default 10_000
   */
  refreshLeaseMs?: number;
  /**
   * Longest wait for an accepted refresh's result, in ms: its lease, then the entity's next workflow task (a dead
   * worker's sticky queue, 1 000 ms, and a replay elsewhere). @default refreshLeaseMs + 5_000
   */
  refreshWaitMs?: number;
}

interface Sealed {
  token: string;
  state?: string;
}

function keyOf(key: string | Uint8Array): Buffer {
  return createHash('sha256').update(key).digest();
}

/** `iv.tag.ciphertext` in base64url; the credential id is authenticated data, so a blob cannot be moved. */
export function seal(key: string | Uint8Array, credential: string, value: Sealed): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(key), iv).setAAD(Buffer.from(credential));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** @throws Error when the blob was not sealed for `credential` under `key`. */
export function unseal(key: string | Uint8Array, credential: string, sealed: string): Sealed {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !body) throw new Error('malformed sealed credential');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(key), iv).setAAD(Buffer.from(credential));
  decipher.setAuthTag(tag);
  return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')) as Sealed;
}

/** The activity the credential entity runs its one refresh as; registered by the plugin in shared mode. */
export function createSharedCredentialActivities(broker: CredentialBroker, key: string | Uint8Array) {
  async function recoveryRefreshCredential(input: {
    credential: string;
    version: number;
    sealed?: string;
  }): Promise<{ sealed: string }> {
    const provider = broker.providerOf(input.credential);
    const previous = input.sealed === undefined ? undefined : unseal(key, input.credential, input.sealed);
    try {
      const r = await provider.refresh(previous?.state === undefined ? undefined : { state: previous.state });
      const state = r.state ?? previous?.state;
      return {
        sealed: seal(key, input.credential, state === undefined ? { token: r.token } : { token: r.token, state }),
      };
    } catch (err) {
      const failure = classifyProviderError(input.credential, err);
      const transient = failure.class === FailureClass.TRANSIENT;
      throw ApplicationFailure.create({
        type: transient ? 'CredentialUnavailable' : 'CredentialRefreshFailed',
        message: transient ? `refresh failed for now (${failure.reason})` : 'the provider refused the refresh',
        nonRetryable: true,
        details: [{ reason: failure.reason, retryAfterMs: failure.retryAfterMs }],
      });
    }
  }
  return { recoveryRefreshCredential };
}

export type SharedCredentialActivities = ReturnType<typeof createSharedCredentialActivities>;

/** The broker's shared refresh (`CredentialBroker.shareRefreshes`): through the entity, within the bounds. */
export function sharedRefresh(options: SharedCredentialOptions & { taskQueue: string }): {
  refresh: SharedRefresh;
  channel: SharedStateChannel;
} {
  const channel = new SharedStateChannel(options); // timeoutMs: 2 000 ms by default, as the breaker's
  const refreshLeaseMs = options.refreshLeaseMs ?? 10_000;
  const waitMs = options.refreshWaitMs ?? refreshLeaseMs + 5_000;
  const unavailable = (id: string, reason: string, message: string, retryAfterMs?: number) => {
    const failure = { ...classifyProviderError(id, new Error(message)), class: FailureClass.TRANSIENT };
    // Only a FailureReason reaches the tool failure: any other (an entity of another version) reads `unavailable`.
    const known = (FAILURE_REASONS as readonly string[]).includes(reason);
    const withReason = { ...failure, reason: (known ? reason : 'unavailable') as typeof failure.reason };
    return new CredentialUnavailable(
      id,
      retryAfterMs === undefined ? withReason : { ...withReason, retryAfterMs },
      new Error(message),
    );
  };
  const refresh: SharedRefresh = async (id, staleVersion) => {
    let answer;
    try {
      answer = await channel.update(
        credentialEntityWorkflow,
        credentialEntityId(id),
        [{ credential: id, refreshLeaseMs }],
        credentialRefreshUpdate,
        [{ holder: HOLDER, staleVersion }],
        waitMs,
      );
    } catch (err) {
      if (!(err instanceof SharedStateUnavailable)) throw err;
      if (err.accepted) throw unavailable(id, 'timeout', err.message); // never a second, local refresh
      return undefined; // not reachable: the broker refreshes locally
    }
    if (answer.kind === 'dead') throw new CredentialRefreshFailed(id, new Error(answer.message));
    if (answer.kind === 'unavailable') throw unavailable(id, answer.reason, answer.message, answer.retryAfterMs);
    return { token: unseal(options.key, id, answer.sealed).token, version: answer.version };
  };
  return { refresh, channel };
}
